// What main does for History's "What happened" panel: the accuracy ledger, and a bounce export brought in.
import type { FileRef } from '../../common/contract.ts';
import type { OutcomesView } from '../outcomes/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';

export function outcomeHandlers(
  outcomes: OutcomesView,
  resolveFile: (ref: FileRef, context: CallContext) => { path: string; fileName: string },
): Pick<Handlers, 'outcomes:ledger' | 'outcomes:import'> {
  return {
    'outcomes:ledger': () => outcomes.ledger(),
    'outcomes:import': async ({ file, kind }, context) => {
      const { path, fileName } = resolveFile(file, context);
      return outcomes.importFile(path, fileName, kind);
    },
  };
}
