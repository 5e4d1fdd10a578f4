// A bounce mailbox read in pages: which UIDs go in each (bounded in count and in bytes, so a mailbox of
// any size is read in bounded memory), and a page's UIDs as IMAP's sequence set.

/** What one page's messages may add up to in memory, and how many a page holds. */
const pageBytes = 16 * 1024 * 1024;
const pageMessages = 2000;

/** The UIDs of a page: in order, as many as fit the page's count and bytes. */
export function pages(uids: readonly number[], sizes: ReadonlyMap<number, number>, most = pageMessages): number[][] {
  const out: number[][] = [];
  let page: number[] = [];
  let bytes = 0;
  for (const uid of uids) {
    const size = sizes.get(uid) ?? 0;
    if (page.length > 0 && (page.length >= most || bytes + size > pageBytes)) {
      out.push(page);
      page = [];
      bytes = 0;
    }
    page.push(uid);
    bytes += size;
  }
  if (page.length > 0) out.push(page);
  return out;
}

/** UIDs as an IMAP sequence set, runs folded into ranges (`1:500,502`): a page's set stays short. */
export function uidSet(uids: readonly number[]): string {
  const sorted = [...uids].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    runs.push(i === j ? String(sorted[i]) : `${sorted[i]}:${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(',');
}
