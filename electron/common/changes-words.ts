// What changed since a list's addresses were last checked, in one sentence, the same wherever Sift says it
// (the results screen, `sift clean`, the report): how many went bad, and so how often the list needs cleaning.
import type { VerdictChanges } from './list-schemas.ts';

const count = (n: number) => n.toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(share >= 0.1 ? 0 : 1)}%`;
const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const averageMonthDays = 30.44;

export function describeChanges(changes: VerdictChanges): string {
  const { compared, was_valid: wasValid, valid_to_invalid: wentBad } = changes;
  const since = `Of the ${count(compared)} address${compared === 1 ? '' : 'es'} checked before (from ${dayOf(changes.earlier_checked_at)})`;
  let head: string;
  if (wasValid === 0) head = `${since}, none was valid then`;
  else {
    const share = wentBad / wasValid;
    head = `${since}, ${percent(share)} of those that were valid are now invalid (${count(wentBad)} of ${count(wasValid)})`;
    // A rate per month only where the checks are far enough apart to say one.
    if (changes.days >= 1) head += `: about ${percent(share / (changes.days / averageMonthDays))} a month`;
  }
  const also = [
    changes.invalid_to_valid > 0 ? `${count(changes.invalid_to_valid)} invalid became valid` : '',
    changes.became_catch_all > 0 ? `${count(changes.became_catch_all)} became catch-all` : '',
    changes.became_unknown > 0 ? `${count(changes.became_unknown)} no longer answer (unknown)` : '',
    `${count(changes.unchanged)} are as they were`,
  ].filter(Boolean);
  const apart = changes.days >= 1 ? `, ${changes.days} days apart on average` : ', earlier the same day';
  return `${head}. ${also.join('; ')}${apart}.`;
}
