// The rules per domain on the Rules screen: every rule with the rows it decided in the last list, what the
// last change did, and the changes a person can make.
import { create } from 'zustand';
import type { RulesSet, RulesView } from '../../../electron/common/contract.ts';
import { ruleActionWords, type RuleAction } from '../../../electron/common/domain-rules.ts';
import { sift } from '../bridge.ts';
import { countOf } from '../format.ts';
import { busyWhileIn } from './busy-while.ts';

type RulesState = {
  view?: RulesView;
  busy: boolean;
  /** What the last change did, in words (for the live region too). */
  notice?: string;
  /** Lines of the last change that were not a domain. */
  refused?: RulesSet['refusedExamples'];
  error?: string;
};

export const useRulesStore = create<RulesState>()(() => ({ busy: false }));

const { setState: set } = useRulesStore;
const busyWhile = busyWhileIn(set, { notice: undefined, refused: undefined });

function describeSet(done: RulesSet, action: RuleAction, from: string): string {
  const changed = done.changed > 0 ? ` (${countOf(done.changed, 'had', 'had')} another rule before)` : '';
  const refused = done.refused > 0 ? ` ${countOf(done.refused, 'line')} left out: not a domain.` : '';
  const name = ruleActionWords[action].name.toLowerCase();
  return `${from}: ${countOf(done.added + done.changed, 'domain')} set to ${name}${changed}.${refused}`;
}

const load = async () => set({ view: await sift.rules.list() });

export const rulesActions = {
  load: () => busyWhile(load),

  /** Sets `action` for what was typed, one domain per line; answers whether it went through. */
  set: (text: string, action: RuleAction) =>
    busyWhile(async () => {
      const domains = text.split(/[\r\n,]+/).filter((line) => line.trim() !== '');
      if (domains.length === 0) return;
      const done = await sift.rules.set({ domains, action });
      await load();
      set({ notice: describeSet(done, action, 'Typed'), refused: done.refusedExamples });
    }),

  importFile: (file: File, action: RuleAction) =>
    busyWhile(async () => {
      const done = await sift.rules.import({ file: await sift.files.stage(file), action });
      await load();
      set({ notice: describeSet(done, action, file.name), refused: done.refusedExamples });
    }),

  remove: (domain: string) =>
    busyWhile(async () => {
      await sift.rules.remove({ domains: [domain] });
      await load();
      set({ notice: `Removed the rule for ${domain}: its addresses are checked again.` });
    }),
};
