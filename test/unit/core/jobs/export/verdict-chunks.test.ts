// Verdicts packed by the export's reader thread come back as they were read, words past the dictionary's
// bound included; a reader that cannot open its list says so.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VerdictColumns } from '../../../../../electron/core/jobs/store/list-types.ts';
import { createRowVerdicts } from '../../../../../electron/core/jobs/export/row-verdicts.ts';
import { createVerdictPacker, createVerdictUnpacker } from '../../../../../electron/core/jobs/export/verdict-chunks.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

describe('packed verdicts', () => {
  it('unpack to the verdicts packed, chunk after chunk, with a dictionary that fills up', () => {
    const random = seededRandom(3);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
    const words = ['valid', 'invalid', 'catch_all', 'unknown', 'mailbox full', 'no such user', 'é "quoted", word'];
    const packer = createVerdictPacker(4);
    const unpacker = createVerdictUnpacker();
    for (let round = 0; round < 30; round += 1) {
      const verdicts: VerdictColumns[] = Array.from({ length: Math.floor(random() * 50) }, () => [
        random() < 0.1 ? null : pick(words),
        Math.floor(random() * 32),
        random() < 0.5 ? null : `${pick(words)}${random() < 0.3 ? round : ''}`,
        random() < 0.2 ? `fix${round}@example.com` : null,
        random() < 0.2 ? `2026-11-${10 + (round % 20)}` : null,
      ]);
      const repeats = verdicts.slice(0, 3);
      const introduced = packer.pack(verdicts);
      const repeated = packer.pack(repeats);
      unpacker.addWords(packer.takeWords());
      expect(unpacker.unpack(introduced)).toEqual(verdicts);
      expect(unpacker.unpack(repeated)).toEqual(repeats);
    }
  });
});

describe('row verdicts', () => {
  it('fail with the reason when the list cannot be read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-verdicts-'));
    const notAList = join(dir, 'not-a-list.sqlite');
    await writeFile(notAList, 'this is not a database');
    const verdicts = createRowVerdicts(notAList);
    await expect(verdicts.readyFor(1)).rejects.toThrow(/not a database/);
    expect(() => verdicts.next(1)).toThrow(/not a database/);
    await verdicts.close();
  });
});
