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
/** A report whose parts come base64 and quoted-printable (Exchange writes its notices so): the decoders' way through. */
const encoded = (encoding: 'base64' | 'quoted-printable') => {
  const encode = (text: string) =>
    encoding === 'base64'
      ? (
          Buffer.from(text)
            .toString('base64')
            .match(/.{1,76}/g) ?? []
        ).join('\r\n')
      : text.replace(/=/g, '=3D').replace(/é/g, '=C3=A9');
  const status = [
    'Reporting-MTA: dns; mx.example',
    '',
    'Final-Recipient: rfc822; gone@dest.example',
    'Action: failed',
    'Status: 5.1.1',
    'Diagnostic-Code: smtp; 550 5.1.1 <gone@dest.example>: Recipient address rejected: User unknown (adresse inconnue, réessayez = non)',
    '',
  ].join('\r\n');
  return Buffer.from(
    [
      'From: postmaster@mx.example',
      'Subject: Undeliverable: news',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      `Content-Transfer-Encoding: ${encoding}`,
      '',
      encode('Delivery has failed to these recipients: gone@dest.example (adresse inconnue, réessayez = non)'),
      '--b',
      'Content-Type: message/delivery-status',
      `Content-Transfer-Encoding: ${encoding}`,
      '',
      encode(status),
      '--b--',
      '',
    ].join('\r\n'),
  );
};
const parser = startBounceParser(2);
afterAll(() => parser.close());

describe('the bounce parser’s threads', () => {
  it('read a page in its order, as readMessage does, however it is shared out', async () => {
    expect(raws.length).toBeGreaterThan(10);
    // Each message twice, with an empty one between: a page the two threads split unevenly.
    const page = [...raws, Buffer.alloc(0), encoded('base64'), encoded('quoted-printable'), ...raws];
    const expected = await Promise.all(page.map((raw) => readMessage(raw)));
    expect(await parser.read(page)).toEqual(expected);
    expect(await parser.read([])).toEqual([]);
    expect(expected.filter((read) => read.kind === 'bounce').length).toBeGreaterThan(5);
    // Both encoded reports are read whole, their words decoded.
    for (const at of [raws.length + 1, raws.length + 2])
      expect(expected[at]).toMatchObject({
        kind: 'bounce',
        recipients: [
          { address: 'gone@dest.example', kind: 'hard', diagnostic: expect.stringContaining('réessayez = non') },
        ],
      });
  });
});
