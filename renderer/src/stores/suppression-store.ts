// The do-not-mail list on the Suppression screen: a page of entries (searched in main, never the whole
// list here), what the last change did, and the changes a person can make.
import { create } from 'zustand';
import type { SuppressionAdded, SuppressionPage } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { countOf } from '../format.ts';
import { busyWhileIn } from './busy-while.ts';

export const suppressionPageSize = 100;

type SuppressionState = {
  page?: SuppressionPage;
  search: string;
  offset: number;
  busy: boolean;
  /** What the last change did, in words (for the live region too). */
  notice?: string;
  /** Lines of the last addition that were neither an address nor a domain. */
  refused?: SuppressionAdded['refusedExamples'];
  error?: string;
};

export const useSuppressionStore = create<SuppressionState>()(() => ({ search: '', offset: 0, busy: false }));

const { getState: get, setState: set } = useSuppressionStore;
const busyWhile = busyWhileIn(set, { notice: undefined, refused: undefined });

function describeAdded(added: SuppressionAdded, from: string): string {
  const already = added.already > 0 ? ` (${countOf(added.already, 'was', 'were')} listed already)` : '';
  const refused =
    added.refused > 0 ? ` ${countOf(added.refused, 'line')} left out: neither an address nor a domain.` : '';
  return `${from}: ${countOf(added.added, 'entry', 'entries')} added${already}.${refused}`;
}

async function fetchPage(search: string, offset: number) {
  set({ search, offset, page: await sift.suppression.list({ search, offset, limit: suppressionPageSize }) });
}

export const suppressionActions = {
  /** A page of entries: those containing `search`, from `offset`. */
  load: (search = get().search, offset = 0) => busyWhile(() => fetchPage(search, offset)),

  /** Adds what was typed, one address or domain per line; answers whether it went through. */
  add: (text: string) =>
    busyWhile(async () => {
      const entries = text.split(/\r?\n/).filter((line) => line.trim() !== '');
      if (entries.length === 0) return;
      const added = await sift.suppression.add({ entries });
      await fetchPage(get().search, 0);
      set({ notice: describeAdded(added, 'Typed'), refused: added.refusedExamples });
    }),

  importFile: (file: File) =>
    busyWhile(async () => {
      const added = await sift.suppression.import({ file: await sift.files.stage(file) });
      await fetchPage(get().search, 0);
      set({ notice: describeAdded(added, file.name), refused: added.refusedExamples });
    }),

  remove: (value: string) =>
    busyWhile(async () => {
      await sift.suppression.remove({ values: [value] });
      await fetchPage(get().search, get().offset);
      set({ notice: `Removed ${value}: it can be sent again.` });
    }),

  clear: () =>
    busyWhile(async () => {
      const { removed } = await sift.suppression.clear();
      await fetchPage('', 0);
      set({ notice: `Forgot ${countOf(removed, 'entry', 'entries')}: nothing is suppressed now.` });
    }),
};
