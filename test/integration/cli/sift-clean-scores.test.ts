// Scores and thresholds from the terminal: every checked row of the annotated file has its score and
// reasons; `--keep valid,catch_all:50,unknown:80` keeps exactly the rows that reach their verdict's score;
// cleaning again with other thresholds writes other rows and sends nothing; the summary gives the spread
// and the thresholds used; read again reusing nothing, the addresses valid before say so.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { runSiftHere } from '../../support/run-sift-here.ts';

const list = `name,email
Ann,valid.ann@firm.example
Ben,invalid.ben@firm.example
Cara,catchall.cara@shop.example
Dan,unknown.dan@shop.example
Eve,valid.eve@gamil.com
Ivy,valid.ivy@mailinator.com
`;

const rows = (text: string) =>
  Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;

describe('sift clean with scores', () => {
  it('scores every checked row, keeps by threshold, and changes thresholds without sending again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sift-scores-'));
    const path = join(dir, 'people.csv');
    writeFileSync(path, list);
    const env = { SIFT_DATA_DIR: join(dir, 'data') };
    const first = await runSiftHere(
      ['clean', path, '--keep', 'valid,catch_all:50,unknown:80', '--remove', 'none'],
      env,
    );
    expect(first.code, first.stderr).toBe(0);

    const annotated = rows(readFileSync(join(dir, 'people.demo.annotated.csv'), 'utf8'));
    const scores = Object.fromEntries(annotated.map((row) => [row.name, [row.sift_score, row.sift_score_reasons]]));
    expect(scores).toEqual({
      Ann: ['90', 'valid=90'],
      Ben: ['0', 'invalid=0'],
      Cara: ['55', 'catch_all=55'],
      Dan: ['40', 'unknown=40'],
      Eve: ['60', 'valid=90;typo=-30'],
      Ivy: ['45', 'valid=90;disposable=-45'],
    });
    const kept = () => rows(readFileSync(join(dir, 'people.demo.cleaned.csv'), 'utf8')).map((row) => row.name);
    expect(kept()).toEqual(['Ann', 'Cara', 'Eve', 'Ivy']);
    const summary = JSON.parse(readFileSync(join(dir, 'people.demo.summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary.score_spread).toEqual({
      valid: { '80+': 1, '50-79': 1, '<50': 1 },
      invalid: { '80+': 0, '50-79': 0, '<50': 1 },
      catch_all: { '80+': 0, '50-79': 1, '<50': 0 },
      unknown: { '80+': 0, '50-79': 0, '<50': 1 },
    });
    expect(summary.kept_at_score).toEqual({ catch_all: 50, unknown: 80 });

    // Other thresholds: other rows, and nothing sent.
    const again = await runSiftHere(
      ['clean', path, '--keep', 'valid:60,catch_all:60,unknown:30', '--remove', 'none'],
      env,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing is sent');
    expect(kept()).toEqual(['Ann', 'Dan', 'Eve']);
    // No thresholds: the verdicts alone again.
    expect((await runSiftHere(['clean', path, '--keep', 'valid', '--remove', 'none'], env)).code).toBe(0);
    expect(kept()).toEqual(['Ann', 'Eve', 'Ivy']);

    // Read again reusing nothing: every address goes to Sift's own service again, and those valid at the
    // earlier check count it.
    const fresh = await runSiftHere(['clean', path, '--restart', '--max-age', '0', '--remove', 'none'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain('6 addresses to check');
    const reread = rows(readFileSync(join(dir, 'people.demo.annotated.csv'), 'utf8'));
    expect(reread.map((row) => [row.name, row.sift_source, row.sift_score_reasons])).toEqual([
      ['Ann', 'demo', 'valid=90;valid_earlier=10'],
      ['Ben', 'demo', 'invalid=0'],
      ['Cara', 'demo', 'catch_all=55'],
      ['Dan', 'demo', 'unknown=40'],
      ['Eve', 'demo', 'valid=90;typo=-30;valid_earlier=10'],
      ['Ivy', 'demo', 'valid=90;disposable=-45;valid_earlier=10'],
    ]);
  });

  it('refuses a threshold that is not a score', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sift-scores-'));
    writeFileSync(join(dir, 'people.csv'), list);
    for (const keep of ['catch_all:101', 'catch_all:high', 'catch_all:-1']) {
      const refused = await runSiftHere(['clean', join(dir, 'people.csv'), '--keep', keep], {
        SIFT_DATA_DIR: join(dir, 'data'),
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('a score is a whole number from 0 to 100');
    }
  });
});
