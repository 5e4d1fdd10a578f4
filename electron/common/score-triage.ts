// The results screen's triage, from a list's score groups (a few dozen, whatever the list's size): how
// many addresses of each verdict score in each band, and how many a choice of verdicts and thresholds
// keeps, as the export would, worked out as a person moves a threshold, without a new check.
import { keepDecider, type KeepChoices } from './keep-choice.ts';
import type { ScoreGroup } from './list-schemas.ts';
import { bandOf, scoreFactsOfAddress, scoreValue, type ScoreWeights } from './risk-score.ts';

/** Per verdict, per band: `{ catch_all: { '80+': 3, '50-79': 9, '<50': 1 } }`, as summary.json's score_spread. */
export function spreadOf(
  groups: readonly ScoreGroup[],
  weights?: ScoreWeights,
): Record<string, Record<string, number>> {
  const spread: Record<string, Record<string, number>> = {};
  for (const group of groups) {
    const facts = scoreFactsOfAddress(group);
    if (!facts) continue;
    const bands = (spread[group.result] ??= { '80+': 0, '50-79': 0, '<50': 0 });
    const band = bandOf(scoreValue(facts, weights));
    bands[band] = (bands[band] ?? 0) + group.count;
  }
  return spread;
}

/** How many addresses `choices` puts in the cleaned list (each once, as the cleaned list has them). */
export function keptCount(groups: readonly ScoreGroup[], choices: KeepChoices, weights?: ScoreWeights): number {
  const kept = keepDecider(choices);
  let count = 0;
  for (const group of groups) {
    const facts = scoreFactsOfAddress(group);
    const typo = group.suggested && !group.accepted;
    const score = facts ? scoreValue(facts, weights) : 0;
    if (kept({ ...group, typo, accepted: group.suggested && group.accepted, score })) count += group.count;
  }
  return count;
}
