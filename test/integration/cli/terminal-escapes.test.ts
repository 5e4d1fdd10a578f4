// Text from outside never reaches the terminal raw: a CSV header quoted in an error, a tool's audience names
// and what it says of itself, and any error naming a file carry no escape sequence (a screen clear, a window
// title, a hyperlink), only their printable words.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailchimp, type MailchimpServer } from '../../support/mailchimp-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

const clear = '\x1b[2J';
const title = '\x1b]0;owned\x07';
const link = '\x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\';

let dir: string;
let chimp: MailchimpServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sift-escapes-'));
  chimp = await startMailchimp();
  chimp.audiences.set('aud1', { name: `News${clear}${title}letter`, members: new Map() });
});
afterAll(async () => {
  await chimp?.close();
  await rm(dir, { recursive: true, force: true });
});

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const noEscapes = (text: string) => expect(text).not.toMatch(/[\x1b\x07\x9b]/);

describe('text from outside, printed', () => {
  it('a CSV header quoted in an error keeps its words and loses its escapes', async () => {
    const list = join(dir, 'list.csv');
    await writeFile(list, `${clear}Email${title},Name ${link}\nann@example.com,Ann\n`);
    const refused = await runSiftHere(['clean', list, '--column', 'nope'], { SIFT_DATA_DIR: join(dir, 'data') });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Its columns are: "Email", "Name here".');
    noEscapes(refused.stderr);
  });

  it("a tool's audience names, and an error naming a file", async () => {
    const env = { SIFT_DATA_DIR: join(dir, 'data'), SIFT_MAILCHIMP_KEY: chimp.key };
    expect((await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env)).code).toBe(0);
    const audiences = await runSiftHere(['audiences', 'shop'], env);
    expect(audiences.stdout).toContain('Newsletter');
    noEscapes(audiences.stdout);
    const missing = await runSiftHere(['clean', join(dir, `gone${title}.csv`)], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('gone.csv');
    noEscapes(missing.stderr);
  });
});
