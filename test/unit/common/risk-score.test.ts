// The score's table: each reason moves the score by its points, the same facts give the same score, and
// other weights change the scores and nothing else.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bandOf,
  scoreAddress,
  scoreMoves,
  scoreStarts,
  scoreValue,
  type ScoreFacts,
} from '../../../electron/common/risk-score.ts';

const plain: ScoreFacts = {
  result: 'catch_all',
  reason: 'accept_all_domain',
  role: false,
  disposable: false,
  typo: false,
  reused: false,
  learned: null,
  free: false,
  provider: null,
  validEarlier: false,
};

describe('the score', () => {
  // The points docs/score-and-rules.md publishes, written out here: a change to the table fails these.
  it.each([
    ['valid', 90],
    ['catch_all', 55],
    ['unknown', 40],
    ['unverified', 30],
    ['invalid', 0],
    ['bad_syntax', 0],
    ['suppressed', 0],
  ] as const)('starts a %s address at %i, and says so', (result, points) => {
    expect(scoreAddress({ ...plain, result })).toEqual({ score: points, reasons: `${result}=${points}` });
  });

  it('starts every verdict the table knows, and no other', () => {
    expect(Object.keys(scoreStarts).sort()).toEqual(
      ['bad_syntax', 'catch_all', 'invalid', 'suppressed', 'unknown', 'unverified', 'valid'].sort(),
    );
  });

  it.each([
    ['role', { role: true }, -15],
    ['disposable', { disposable: true }, -45],
    ['typo', { typo: true }, -30],
    ['mailbox_full', { reason: 'mailbox_full' }, -25],
    ['greylisted', { reason: 'greylisted' }, 10],
    ['timeout', { reason: 'timeout' }, -5],
    ['reused', { reused: true }, -5],
    ['free', { free: true }, -5],
    ['catch_all_google', { provider: 'Google' }, 10],
    ['catch_all_microsoft', { provider: 'Microsoft' }, -10],
    ['valid_earlier', { validEarlier: true }, 10],
    ['catch_all_bounces', { learned: 'catch_all_bounces' }, -25],
    ['catch_all_delivers', { learned: 'catch_all_delivers' }, 15],
  ] as const)('moves by %s, %i points', (name, fact, points) => {
    const moved = scoreAddress({ ...plain, ...fact });
    expect(moved.score).toBe(55 + points);
    expect(moved.reasons).toBe(`catch_all=55;${name}=${points}`);
  });

  it('adds its moves, stays within 0-100, and never lifts an address that is ruled out', () => {
    const all = { ...plain, result: 'valid', role: true, typo: true, reused: true };
    expect(scoreAddress(all)).toEqual({ score: 90 - 15 - 30 - 5, reasons: 'valid=90;role=-15;typo=-30;reused=-5' });
    expect(scoreValue({ ...plain, result: 'unknown', disposable: true, typo: true })).toBe(0);
    expect(scoreAddress({ ...plain, result: 'invalid', reason: 'greylisted', role: true })).toEqual({
      score: 0,
      reasons: 'invalid=0',
    });
    expect(scoreValue({ ...plain, result: 'valid', reason: 'greylisted' }, { starts: { valid: 95 } })).toBe(100);
  });

  it('moves a catch-all by its mail hosts only: a valid address at Google is not a catch-all', () => {
    expect(scoreValue({ ...plain, provider: 'Yahoo' })).toBe(55);
    expect(scoreAddress({ ...plain, result: 'valid', provider: 'Google' })).toEqual({ score: 90, reasons: 'valid=90' });
    expect(scoreAddress({ ...plain, result: 'valid', provider: 'Microsoft', free: true })).toEqual({
      score: 85,
      reasons: 'valid=90;free=-5',
    });
  });

  it("moves only a catch-all by its domain's sends: a valid address at a learned domain stays as it is", () => {
    expect(scoreAddress({ ...plain, result: 'valid', learned: 'catch_all_bounces' })).toEqual({
      score: 90,
      reasons: 'valid=90',
    });
    expect(scoreValue({ ...plain, learned: 'catch_all_delivers' }, { moves: { catch_all_delivers: 30 } })).toBe(85);
  });

  it('counts an earlier valid check only where the verdict was not itself reused from it', () => {
    expect(scoreAddress({ ...plain, reused: true, validEarlier: true })).toEqual({
      score: 50,
      reasons: 'catch_all=55;reused=-5',
    });
  });

  it('gives the same facts the same score, and other weights other scores only', () => {
    const facts = { ...plain, role: true };
    expect(scoreAddress(facts)).toEqual(scoreAddress({ ...facts }));
    const weighted = scoreAddress(facts, { starts: { catch_all: 70 }, moves: { role: -5 } });
    expect(weighted).toEqual({ score: 65, reasons: 'catch_all=70;role=-5' });
    expect(scoreAddress(facts)).toEqual({ score: 40, reasons: 'catch_all=55;role=-15' });
  });

  it('counts 80 and above, 50 to 79, and below 50 apart', () => {
    expect([100, 80, 79, 50, 49, 0].map(bandOf)).toEqual(['80+', '80+', '50-79', '50-79', '<50', '<50']);
  });

  it('is the table docs/score-and-rules.md shows, point for point', () => {
    const readme = readFileSync(new URL('../../../docs/score-and-rules.md', import.meta.url), 'utf8');
    const shown = new Map(
      [...readme.matchAll(/^\| ([a-z_, ]+?) +\| (starts at )?([−+-]?\d+) +\|/gm)].flatMap((row) =>
        row[1]!.split(', ').map((name) => [name, Number(row[3]!.replace('−', '-'))] as const),
      ),
    );
    for (const [name, { points }] of [...Object.entries(scoreStarts), ...Object.entries(scoreMoves)])
      if (name !== 'unverified') expect(shown.get(name), name).toBe(points);
  });

  it('says why for every line of its table', () => {
    for (const line of [...Object.values(scoreStarts), ...Object.values(scoreMoves)])
      expect(line.why.length).toBeGreaterThan(10);
  });
});
