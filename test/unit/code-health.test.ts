// The house rules a newcomer can rely on, checked: files stay small, each database's SQL stays in its
// store modules, and lint refuses code Prettier would format differently.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as prettier from 'prettier';

const root = new URL('../../', import.meta.url).pathname;
const sources = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'electron', 'renderer'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((path) => /\.(ts|tsx)$/.test(path));
const text = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** Where SQL may be written: the store modules of each database, and the storage adapters. */
const sqlHomes = [
  /^electron\/core\/storage\//,
  /^electron\/core\/jobs\/(job-store|job-store-schema|list-store|list-store-schema|list-store-append|list-store-breakdown|list-store-parts|list-store-rows|list-store-verdicts)\.ts$/,
  /^electron\/core\/service\/store\//,
  /^electron\/core\/client\/(reach-store|send-log-store)\.ts$/,
];
const sqlStatement =
  /(['"`])\s*(SELECT\s[\s\S]*?\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX))\b/i;

describe('code health', () => {
  it('keeps every source file under 300 lines', () => {
    const long = sources
      .map((path) => [path, text(path).split('\n').length] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });

  it('keeps SQL in the store modules', () => {
    const stray = sources.filter((path) => !sqlHomes.some((home) => home.test(path)) && sqlStatement.test(text(path)));
    expect(stray).toEqual([]);
  });

  it('has lint check formatting, and Prettier refuses an unformatted file', async () => {
    const scripts = (JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.lint).toContain('prettier --check');
    const options = { ...(await prettier.resolveConfig(`${root}electron/core/example.ts`)), filepath: 'example.ts' };
    expect(await prettier.check('const a = {b:1}\n', options)).toBe(false);
    expect(await prettier.check('const a = { b: 1 };\n', options)).toBe(true);
    expect(options.printWidth).toBe(120);
  });
});
