// The end of a read, where rows can land between the last page and the status call.
import { describe, expect, it } from 'vitest';
import { readResults } from '../../../../electron/core/client/results-reader.ts';
import { fakeClock } from '../../../support/fault-proxy.ts';

function scriptedClient(
  pages: { data: string[]; has_more: boolean; next_cursor: string | null }[],
  statuses: string[],
) {
  const asked: (string | null | undefined)[] = [];
  return {
    asked,
    client: {
      getResultsPage: async (_id: string, options: { cursor?: string | null }) => {
        asked.push(options.cursor);
        const page = pages.shift()!;
        return { ...page, data: page.data.map((email) => ({ email, result: 'valid', billed: false })) };
      },
      getBatch: async () => ({ id: 'bat_1', status: statuses.shift()!, submitted: 3, unique: 3 }),
    },
  };
}

describe('readResults', () => {
  it('reads once more after seeing complete, so rows written in between are not lost', async () => {
    const { client, asked } = scriptedClient(
      [
        { data: ['a', 'b'], has_more: false, next_cursor: 'c1' }, // the batch was still running
        { data: ['c'], has_more: false, next_cursor: null }, // read after the status said complete
      ],
      ['complete'],
    );
    const rows: string[] = [];
    const reader = readResults(client, 'bat_1', { clock: fakeClock() });
    let next = await reader.next();
    while (!next.done) {
      rows.push(...next.value.rows.map((row) => row.email));
      next = await reader.next();
    }
    expect(rows).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([null, 'c1']);
    expect(next.value.status).toBe('complete');
  });

  it('keeps polling through statuses it does not know, and gives up after the stall timeout', async () => {
    const pages = Array.from({ length: 50 }, () => ({ data: [] as string[], has_more: true, next_cursor: 'same' }));
    const { client } = scriptedClient(
      pages,
      Array.from({ length: 50 }, () => 'warming_up'),
    );
    const clock = fakeClock();
    const reader = readResults(client, 'bat_1', {
      clock,
      pollIntervalMs: 1000,
      statusEveryMs: 1000,
      stallTimeoutMs: 10_000,
    });
    await expect(
      (async () => {
        for await (const chunk of reader) void chunk;
      })(),
    ).rejects.toMatchObject({ kind: 'stalled' });
    expect(clock.waits.length).toBeGreaterThanOrEqual(10);
  });
});
