// A do-not-mail list applied to a list, through the one sequence the app and the CLI share, against a
// service that counts what it is sent: addresses (in any case or spacing) and whole domains are never
// submitted, never in the cleaned list, counted as suppressed on a funnel that still adds up, and written
// to their own file when asked; files of entries are read as people keep them.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import { createCleaner } from '../../../../electron/core/jobs/list-cleaner.ts';
import { jobSettings } from '../../../../electron/core/jobs/job-settings.ts';
import { openJobStore } from '../../../../electron/core/jobs/store/index.ts';
import {
  openSuppressionStore,
  readSuppressionFile,
  suppressionSource,
  type SuppressionEntry,
} from '../../../../electron/core/suppression/index.ts';
import { startSpecPeer, type SpecPeer } from '../../../support/spec-peer.ts';

const apiKey = 'svc_live_suppresspeer0123456789';
let root: string;
let peer: SpecPeer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-suppression-'));
  peer = await startSpecPeer({ apiKey });
});
afterAll(() => peer.close());

const parse = async (path: string) =>
  Papa.parse<Record<string, string>>((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data;

describe('suppression lists', () => {
  it('reads CSV exports, TSV and text files of entries, leaving out what is neither', async () => {
    const csv = join(root, 'unsubscribes.csv');
    await writeFile(csv, 'Date,Email,Reason\n2026-01-02,Gone@Shop.example,unsub\n2026-01-03,"<x@shop.example>",spam\n');
    const txt = join(root, 'domains.txt');
    await writeFile(txt, 'rival.example\r\n@other.example\r\n\r\nnot one\r\n');
    const tsv = join(root, 'holds.tsv');
    await writeFile(tsv, 'address\tcase\nlegal@firm.example\t42\n');
    const read = async (path: string, name: string) => {
      const entries: SuppressionEntry[] = [];
      const result = await readSuppressionFile(path, name, (batch) => entries.push(...batch));
      return { ...result, list: entries };
    };
    expect(await read(csv, 'unsubscribes.csv')).toMatchObject({
      list: [
        { kind: 'address', value: 'gone@shop.example' },
        { kind: 'address', value: 'x@shop.example' },
      ],
      refused: 0,
    });
    expect(await read(txt, 'domains.txt')).toMatchObject({
      list: [
        { kind: 'domain', value: 'rival.example' },
        { kind: 'domain', value: 'other.example' },
      ],
      refused: 1,
      refusedExamples: [{ entry: 'not one' }],
    });
    expect((await read(tsv, 'holds.tsv')).list).toEqual([{ kind: 'address', value: 'legal@firm.example' }]);
    const empty = join(root, 'empty.txt');
    await writeFile(empty, 'Email\n');
    await expect(read(empty, 'empty.txt')).rejects.toThrow('holds no address or domain');
  });

  it('never sends, bills or keeps a suppressed row, and the funnel still adds up', async () => {
    const dataDir = join(root, 'data');
    const stored = openSuppressionStore(dataDir);
    stored.add(
      [
        { kind: 'address', value: 'valid.opted.out@shop.example' },
        { kind: 'domain', value: 'rival.example' },
      ],
      'test',
    );
    stored.close();
    const rows = [
      'valid.ann@shop.example',
      ' VALID.Opted.Out@Shop.Example ', // the stored address, typed otherwise
      'valid.opted.out@shop.example', // and again: a duplicate of a suppressed address
      'valid.bo@rival.example',
      'invalid.cy@mail.rival.example', // a subdomain of a suppressed domain
      'valid.once@elsewhere.example', // on the one-off list only
      'not an address',
      '',
      'catchall.dee@shop.example',
    ];
    const input = join(root, 'list.csv');
    await writeFile(input, `Name,Email\n${rows.map((email, i) => `P${i},"${email}"`).join('\n')}\n`);
    const store = openJobStore(dataDir);
    const cleaner = createCleaner(store, {
      suppression: suppressionSource(dataDir, [{ kind: 'address', value: 'valid.once@elsewhere.example' }]),
    });
    try {
      const { job, exported } = await cleaner.cleanFile(
        createServiceClient({ baseUrl: peer.baseUrl, apiKey }),
        {
          inputPath: input,
          settings: jobSettings({ keep: ['valid', 'catch_all', 'invalid'], perStatusFiles: true }),
          outDir: root,
        },
        { pollIntervalMs: 20 },
      );
      expect(job.phase).toBe('done');
      expect([...peer.submissions.keys()].map((email) => email.toLowerCase()).sort()).toEqual([
        'catchall.dee@shop.example',
        'valid.ann@shop.example',
      ]);
      const summary = exported.summary;
      expect(summary).toMatchObject({
        rows: 9,
        no_address: 1,
        bad_syntax: 1,
        duplicates: 1,
        suppressed: 4,
        to_check: 2,
        unverified: 0,
        billed: 2,
      });
      expect(summary.no_address + summary.bad_syntax + summary.duplicates + summary.suppressed + summary.to_check).toBe(
        summary.rows,
      );
      const cleaned = await parse(exported.cleanedPath);
      expect(cleaned.map((row) => row.Name)).toEqual(['P0', 'P8']);
      const annotated = await parse(exported.annotatedPath);
      expect(
        annotated.filter((row) => row.sift_result === 'suppressed').map((row) => [row.Name, row.sift_reason]),
      ).toEqual([
        ['P1', 'suppressed_address'],
        ['P2', 'suppressed_address'],
        ['P3', 'suppressed_domain'],
        ['P4', 'suppressed_domain'],
        ['P5', 'suppressed_address'],
      ]);
      expect(annotated.find((row) => row.Name === 'P2')).toMatchObject({
        sift_result: 'suppressed',
        sift_duplicate: 'true',
        sift_source: 'suppression',
        sift_billed: 'false',
      });
      const suppressedFile = exported.files.find((file) => file.kind === 'suppressed')!;
      expect((await parse(suppressedFile.path)).map((row) => row.Name)).toEqual(['P1', 'P3', 'P4', 'P5']);
      // Nothing suppressed reaches another per-status file.
      const validFile = exported.files.find((file) => file.kind === 'valid')!;
      expect((await parse(validFile.path)).map((row) => row.Name)).toEqual(['P0']);
    } finally {
      store.close();
    }
  });
});
