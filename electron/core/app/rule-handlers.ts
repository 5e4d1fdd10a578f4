// What main does for the Rules screen's calls: the rules per domain the app and `sift rules` share.
import type { FileRef } from '../../common/contract.ts';
import { setRulesFromFile, setRulesFromText, type RuleStore } from '../rules/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';

export function ruleHandlers(
  store: RuleStore,
  resolveFile: (ref: FileRef, context: CallContext) => { path: string; fileName: string },
): Pick<Handlers, 'rules:list' | 'rules:set' | 'rules:import' | 'rules:remove'> {
  return {
    'rules:list': async () => {
      const last = store.lastList();
      return {
        rules: store.all().map((rule) => ({ ...rule, lastListRows: last?.rows[rule.domain] ?? 0 })),
        lastList: last ? { list: last.list, at: last.at } : null,
      };
    },
    'rules:set': async ({ domains, action }) => setRulesFromText(store, domains, action, 'by hand'),
    'rules:import': async ({ file, action }, context) => {
      const { path, fileName } = resolveFile(file, context);
      return setRulesFromFile(store, path, action, fileName);
    },
    'rules:remove': async ({ domains }) => ({ removed: store.remove(domains) }),
  };
}
