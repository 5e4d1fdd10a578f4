// History's "What happened" panel: the accuracy ledger main computes (never the outcomes themselves here),
// and a bounce export brought in from a file.
import { create } from 'zustand';
import type { OutcomeImport, OutcomeLedger } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { countOf } from '../format.ts';
import { busyWhileIn } from './busy-while.ts';

type OutcomesState = {
  ledger?: OutcomeLedger;
  busy: boolean;
  /** What the last import did, in words (for the live region too). */
  notice?: string;
  /** Rows of the last import Sift could not read. */
  examples?: string[];
  error?: string;
};

export const useOutcomesStore = create<OutcomesState>()(() => ({ busy: false }));

const { setState: set } = useOutcomesStore;
const busyWhile = busyWhileIn(set, { notice: undefined, examples: undefined });

function describeImport(read: OutcomeImport, from: string): string {
  const parts = [
    `${countOf(read.hard, 'hard bounce')} (${countOf(read.suppressed, 'address', 'addresses')} new on the do-not-mail list)`,
    countOf(read.soft, 'soft bounce'),
    ...(read.sender > 0 ? [`${countOf(read.sender, 'bounce')} that blamed the sender`] : []),
    ...(read.other > 0 ? [`${countOf(read.other, 'row')} that are no bounce`] : []),
    ...(read.refused > 0 ? [`${countOf(read.refused, 'row')} left out`] : []),
  ];
  const dated = read.datedBy === 'file' ? ' It has no date column: its bounces are dated by the file.' : '';
  return `${from}: ${parts.join(', ')}.${dated}`;
}

export const outcomesActions = {
  load: () =>
    busyWhile(async () => {
      set({ ledger: await sift.outcomes.ledger() });
    }),

  importFile: (file: File, kind?: 'hard' | 'soft') =>
    busyWhile(async () => {
      const read = await sift.outcomes.import({ file: await sift.files.stage(file), ...(kind ? { kind } : {}) });
      set({ ledger: await sift.outcomes.ledger(), notice: describeImport(read, file.name), examples: read.examples });
    }),
};
