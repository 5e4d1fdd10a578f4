// What main does for the Suppression screen's calls: the do-not-mail list the app and `sift` share.
import { basename } from 'node:path';
import type { FileRef, SuppressionAdded } from '../../common/contract.ts';
import {
  isRefused,
  parseSuppressionEntry,
  readSuppressionFile,
  type RefusedEntry,
  type SuppressionEntry,
  type SuppressionStore,
} from '../suppression/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';

const refusedShown = 10;

export function suppressionHandlers(
  store: SuppressionStore,
  resolveFile: (ref: FileRef, context: CallContext) => { path: string; fileName: string },
): Pick<
  Handlers,
  'suppression:list' | 'suppression:add' | 'suppression:import' | 'suppression:remove' | 'suppression:clear'
> {
  return {
    'suppression:list': async ({ search, offset, limit }) => {
      const { address, domain } = store.counts();
      return { ...store.page({ search, offset, limit }), addresses: address, domains: domain };
    },
    'suppression:add': async ({ entries }): Promise<SuppressionAdded> => {
      const accepted: SuppressionEntry[] = [];
      const refused: RefusedEntry[] = [];
      for (const entry of entries) {
        const parsed = parseSuppressionEntry(entry);
        if (!isRefused(parsed)) accepted.push(parsed);
        else if (parsed.reason !== 'empty') refused.push(parsed);
      }
      const added = store.add(accepted, 'by hand');
      return {
        added,
        already: accepted.length - added,
        refused: refused.length,
        refusedExamples: refused.slice(0, refusedShown),
      };
    },
    'suppression:import': async ({ file }, context) => {
      const { path, fileName } = resolveFile(file, context);
      let added = 0;
      const read = await readSuppressionFile(path, fileName, (batch) => {
        added += store.add(batch, basename(fileName));
      });
      return { added, already: read.entries - added, refused: read.refused, refusedExamples: read.refusedExamples };
    },
    'suppression:remove': async ({ values }) => ({ removed: store.remove(values) }),
    'suppression:clear': async () => ({ removed: store.clear() }),
  };
}
