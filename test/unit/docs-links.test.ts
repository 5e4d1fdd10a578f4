// The documentation holds together: every relative link in README.md and docs/ (pages, images, sections of
// the repository) names a file that is there, README stays a page a newcomer reads to the end, and the
// page each command's --help names exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandNames, helpFor } from '../../electron/cli/command-help.ts';

const root = new URL('../../', import.meta.url).pathname;
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the documentation', () => {
  it('links only to files that are there', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const file = target!.split('#')[0]!;
        if (!existsSync(join(root, dirname(page), file))) broken.push(`${page} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps README to about 200 lines, linking every page of docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const page of pages.filter((name) => name.startsWith('docs/'))) expect(readme).toContain(`(${page})`);
  });

  it("names, in each command's help, a page that is there", async () => {
    for (const command of commandNames) {
      const page = /More: (docs\/[\w-]+\.md)/.exec((await helpFor(command))!)?.[1];
      expect(page, command).toBeDefined();
      expect(existsSync(join(root, page!)), page).toBe(true);
    }
  });
});
