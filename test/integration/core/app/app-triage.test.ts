// Triage in the app, through the real dispatch and Sift's own service (sandbox key): the breakdown's score
// groups count what each threshold keeps exactly as the export then writes it, with no new check; the
// explorer filters and sorts by score and gives each row its reasons; other points in Settings change the
// scores (explorer, breakdown, export) and nothing else, and a point out of range is refused.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type {
  ExplorerRow,
  ExportFile,
  JobOverview,
  ListBreakdown,
  ListSummary,
  ScoreLineView,
} from '../../../../electron/common/contract.ts';
import { keptCount, spreadOf } from '../../../../electron/common/score-triage.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const call = appCaller('ipc');

const list = `name,email
Ann,valid.ann@firm.example
Info,info@acme.example
Cara,catchall.cara@shop.example
Dan,unknown.dan@shop.example
Eve,valid.eve@gamil.com
Ivy,valid.ivy@mailinator.com
Bob,valid.bob@gmail.com
`;

describe('triage in the app', () => {
  it('counts what a threshold keeps as the export writes it, and scores with the points Settings has', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-triage-'));
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      const path = join(dataDir, 'people.csv');
      await writeFile(path, list);
      const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      await call(runtime, 'jobs:start', { jobId: created.jobId });
      const { jobId } = created;
      await waitFor(async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId })).phase === 'done');
      const breakdown = await call<ListBreakdown>(runtime, 'jobs:breakdown', { jobId });
      expect(breakdown.scoreWeights).toEqual({});
      expect(spreadOf(breakdown.scoreGroups)).toMatchObject({
        valid: { '80+': 2, '50-79': 2, '<50': 1 },
        catch_all: { '50-79': 1 },
        unknown: { '<50': 1 },
      });

      const rowsOf = async (request: Record<string, unknown>) =>
        (
          await call<{ total: number; rows: ExplorerRow[] }>(runtime, 'jobs:rows', {
            jobId,
            offset: 0,
            limit: 50,
            ...request,
          })
        ).rows;
      const names = (rows: ExplorerRow[]) => rows.map((row) => row.cells[0]);
      const all = await rowsOf({});
      expect(all.map((row) => [row.cells[0], row.score, row.scoreReasons])).toEqual([
        ['Ann', 90, 'valid=90'],
        ['Info', 75, 'valid=90;role=-15'],
        ['Cara', 55, 'catch_all=55'],
        ['Dan', 40, 'unknown=40'],
        ['Eve', 60, 'valid=90;typo=-30'],
        ['Ivy', 45, 'valid=90;disposable=-45'],
        ['Bob', 85, 'valid=90;free=-5'],
      ]);
      expect(names(await rowsOf({ sort: 'score_high' }))).toEqual(['Ann', 'Bob', 'Info', 'Eve', 'Cara', 'Ivy', 'Dan']);
      expect(names(await rowsOf({ sort: 'score_low', filter: 'valid' }))).toEqual(['Ivy', 'Eve', 'Info', 'Bob', 'Ann']);
      expect(names(await rowsOf({ filter: 'score_50' }))).toEqual(['Info', 'Cara', 'Eve']);
      expect(names(await rowsOf({ filter: 'score_low', search: 'shop' }))).toEqual(['Dan']);

      // What each choice keeps, counted from the groups, is what the export writes; nothing is sent again.
      const billed = (await call<JobOverview>(runtime, 'jobs:get', { jobId })).summary!.billed;
      // The people each choice keeps, from the scores above (not from the product's own count).
      const choices: { keep: string[]; keepAtScore: Record<string, number>; kept: string[] }[] = [
        { keep: ['valid', 'catch_all'], keepAtScore: {}, kept: ['Ann', 'Info', 'Cara', 'Eve', 'Ivy', 'Bob'] },
        { keep: ['valid', 'catch_all'], keepAtScore: { valid: 80, catch_all: 60 }, kept: ['Ann', 'Bob'] },
        {
          keep: ['valid', 'unknown'],
          keepAtScore: { valid: 50, unknown: 40 },
          kept: ['Ann', 'Info', 'Dan', 'Eve', 'Bob'],
        },
      ];
      for (const { kept, ...choice } of choices) {
        const remove = { role: false, disposable: false, typos: false };
        const exported = await call<{ files: ExportFile[]; summary: ListSummary }>(runtime, 'jobs:export', {
          jobId,
          ...choice,
          remove,
        });
        const cleaned = exported.files.find((file) => file.kind === 'cleaned')!;
        const text = await readFile(join(dataDir, cleaned.downloadPath.replace(/^downloads\//, 'exports/')), 'utf8');
        const rows = Papa.parse<{ name: string }>(text.replace(/^\uFEFF/, ''), {
          header: true,
          skipEmptyLines: true,
        }).data;
        expect(
          rows.map((row) => row.name),
          JSON.stringify(choice),
        ).toEqual(kept);
        // And the count the triage screen shows says the same.
        expect(keptCount(breakdown.scoreGroups, { ...choice, remove })).toBe(kept.length);
        expect(exported.summary.billed).toBe(billed);
        if (Object.keys(choice.keepAtScore).length > 0)
          expect(exported.summary.kept_at_score).toEqual(choice.keepAtScore);
      }

      // Other points in Settings: the scores move, the verdicts and the rest of each row do not.
      const refused = await runtime.dispatch('scores:setWeights', { moves: { role: -101 } }, { transport: 'ipc' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      const set = await call<{ lines: ScoreLineView[] }>(runtime, 'scores:setWeights', {
        starts: { catch_all: 70 },
        moves: { role: 0 },
      });
      expect(set.lines.find((line) => line.name === 'catch_all')).toMatchObject({ points: 70, sift: 55 });
      const reweighed = await rowsOf({});
      expect(reweighed.map((row) => [row.cells[0], row.score])).toEqual([
        ['Ann', 90],
        ['Info', 90],
        ['Cara', 70],
        ['Dan', 40],
        ['Eve', 60],
        ['Ivy', 45],
        ['Bob', 85],
      ]);
      const strip = (rows: ExplorerRow[]) => rows.map(({ score: _s, scoreReasons: _r, ...rest }) => rest);
      expect(strip(reweighed)).toEqual(strip(all));
      expect((await call<ListBreakdown>(runtime, 'jobs:breakdown', { jobId })).scoreWeights).toEqual({
        starts: { catch_all: 70 },
        moves: { role: 0 },
      });
      const exported = await call<{ summary: ListSummary }>(runtime, 'jobs:export', { jobId, keep: ['valid'] });
      expect(exported.summary.score_weights).toEqual({ starts: { catch_all: 70 }, moves: { role: 0 } });
      expect(JSON.parse(await readFile(join(dataDir, 'score-weights.json'), 'utf8'))).toEqual({
        starts: { catch_all: 70 },
        moves: { role: 0 },
      });
      // Sift's own points again.
      await call(runtime, 'scores:setWeights', {});
      expect((await rowsOf({}))[1]!.score).toBe(75);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
