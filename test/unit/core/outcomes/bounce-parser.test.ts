// A page of a bounce mailbox parsed on the parser's threads comes back in the page's order, each message
// read as the app's own thread reads it (readMessage): bounces, mail that is none, and broken bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readMessage } from '../../../../electron/core/outcomes/bounce-message.ts';
import { startBounceParser } from '../../../../electron/core/outcomes/bounce-parser.ts';

const folder = new URL('../../../fixtures/bounces/', import.meta.url);
const raws = readdirSync(folder)
  .filter((name) => name.endsWith('.eml'))
  .sort()
  .map((name) => readFileSync(new URL(name, folder)));
const parser = startBounceParser(2);
afterAll(() => parser.close());

describe('the bounce parser’s threads', () => {
  it('read a page in its order, as readMessage does, however it is shared out', async () => {
    expect(raws.length).toBeGreaterThan(10);
    // Each message twice, with an empty one between: a page the two threads split unevenly.
    const page = [...raws, Buffer.alloc(0), ...raws];
    const expected = await Promise.all(page.map((raw) => readMessage(raw)));
    expect(await parser.read(page)).toEqual(expected);
    expect(await parser.read([])).toEqual([]);
    expect(expected.filter((read) => read.kind === 'bounce').length).toBeGreaterThan(5);
  });
});
