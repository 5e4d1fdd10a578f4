// The house rules a newcomer can rely on, checked: files stay small, each database's SQL stays in its
// store modules, and lint refuses code Prettier would format differently.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as prettier from 'prettier';
import { startFirst, tierFiles, tieredFiles } from '../tiers.ts';

const root = new URL('../../', import.meta.url).pathname;
const sources = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'electron', 'renderer', 'packaging'],
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
  /^electron\/core\/jobs\/store\//,
  /^electron\/core\/service\/store\//,
  /^electron\/core\/client\/(reach-store|send-log-store)\.ts$/,
  /^electron\/core\/cache\/verdict-cache-(store|schema|reader|changes|history)\.ts$/,
  /^electron\/core\/outcomes\/(outcome-store(-schema)?|team-share-store)\.ts$/,
  /^electron\/core\/suppression\/suppression-store\.ts$/,
  /^electron\/core\/rules\/rule-store\.ts$/,
  /^electron\/core\/connectors\/(sync-store|sync-store-schema|schedule-store)\.ts$/,
  /^electron\/core\/list-file\//,
];
const sqlStatement =
  /(['"`])\s*(SELECT\s[\s\S]*?\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX))\b/i;

/** A source file's relative imports: all of them, or (`runtimeOnly`) those that exist when it runs. */
function runtimeImports(path: string, source: string, runtimeOnly = true): string[] {
  const imports: string[] = [];
  for (const [, typeOnly, names, from] of source.matchAll(
    /^(?:import|export)\s+(type\s+)?([^'"]*?)\s*from\s+'(\.[^']+)'/gm,
  )) {
    if (!runtimeOnly) {
      imports.push(normalize(join(dirname(path), from!)));
      continue;
    }
    const named = /\{([^}]*)\}/.exec(names!)?.[1];
    const everyNameIsType =
      named !== undefined &&
      /^\{[^}]*\}$/.test(names!.trim()) &&
      named
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    if (!typeOnly && !everyNameIsType) imports.push(normalize(join(dirname(path), from!)));
  }
  // A module loaded when it is first needed (`await import('./x.ts')`) binds the two as much as one above.
  for (const [, from] of source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g))
    imports.push(normalize(join(dirname(path), from!)));
  return imports;
}

/** Every import circle, each as the files on it (Tarjan's strongly connected components). */
function importCircles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (from: string) => {
    order.set(from, order.size);
    lowest.set(from, order.get(from)!);
    stack.push(from);
    for (const to of edges.get(from)!.filter((path) => edges.has(path))) {
      if (!order.has(to)) {
        visit(to);
        lowest.set(from, Math.min(lowest.get(from)!, lowest.get(to)!));
      } else if (stack.includes(to)) lowest.set(from, Math.min(lowest.get(from)!, order.get(to)!));
    }
    if (lowest.get(from) !== order.get(from)) return;
    const component = stack.splice(stack.indexOf(from));
    if (component.length > 1) circles.push(component);
  };
  for (const path of edges.keys()) if (!order.has(path)) visit(path);
  return circles;
}

/**
 * jobs/ by concern: each folder's modules are reached from outside it only through its face (index.ts).
 * The job threads are the exception: each opens the one list module it runs with, so that a thread loads
 * SQLite and little else.
 */
const faced = /^electron\/core\/jobs\/(store|import|run|export|views)\//;
const threadModules = [
  'electron/core/jobs/store/list-store-append.ts',
  'electron/core/jobs/store/list-store-verdicts.ts',
  'electron/core/jobs/store/list-store-search.ts',
  'electron/core/jobs/store/list-store-rows.ts',
  'electron/core/jobs/store/list-types.ts',
];

/**
 * core/ in layers, bottom up: a folder may import from its own layer and the ones below, never above.
 * The files at core/'s root (own-files, lazy-package, app-paths) are the bottom: how Sift runs and where.
 */
const coreLayers: readonly (readonly string[])[] = [
  ['.', 'storage', 'wire', 'streams', 'email'],
  ['lists', 'list-file'],
  ['client', 'service', 'cache', 'suppression', 'rules', 'scoring', 'updates'],
  ['connections', 'connectors', 'outcomes'],
  ['jobs'],
  ['app'],
  ['web-host'],
];
const coreFolder = (path: string) => /^electron\/core\/([^/]+)\//.exec(path)?.[1] ?? '.';
const layerOf = (path: string) => coreLayers.findIndex((layer) => layer.includes(coreFolder(path)));

/** Imports within core/ that run upward, as `from → to`; type-only imports count (they bind the layers too). */
function upwardImports(files: readonly (readonly [string, string])[]): string[] {
  const upward: string[] = [];
  for (const [path, source] of files) {
    if (!path.startsWith('electron/core/')) continue;
    for (const target of runtimeImports(path, source, false)) {
      if (!target.startsWith('electron/core/')) continue;
      if (layerOf(target) > layerOf(path)) upward.push(`${path} → ${target}`);
    }
  }
  return upward;
}

describe('code health', () => {
  it('keeps every folder of core/ in a layer, and imports only from its own layer or those below', () => {
    const folders = new Set(sources.filter((path) => path.startsWith('electron/core/')).map(coreFolder));
    expect([...folders].filter((folder) => !coreLayers.flat().includes(folder))).toEqual([]);
    expect(upwardImports(sources.map((path) => [path, text(path)] as const))).toEqual([]);
    // The check itself: the verdict cache reaching into jobs/ is refused, jobs/ reaching the cache is not.
    const up = "import type { NewAddress } from '../jobs/store/index.ts';";
    const down = "import { rememberVerdicts } from '../cache/index.ts';";
    expect(
      upwardImports([
        ['electron/core/cache/cache-lookup.ts', up],
        ['electron/core/jobs/list-cleaner.ts', down],
      ]),
    ).toEqual(['electron/core/cache/cache-lookup.ts → electron/core/jobs/store/index.ts']);
  });

  it('has no circle of imports, counting the ones only types go through', () => {
    const edges = new Map(sources.map((path) => [path, runtimeImports(path, text(path), false)]));
    expect(importCircles(edges)).toEqual([]);
  });

  it('reaches each of jobs/ folders only through its face', () => {
    const strays: string[] = [];
    for (const path of sources) {
      for (const target of runtimeImports(path, text(path), false)) {
        const folder = faced.exec(target)?.[0];
        if (!folder || path.startsWith(folder) || target === `${folder}index.ts`) continue;
        if (threadModules.includes(target) && /-worker\.ts$/.test(path)) continue;
        if (threadModules.includes(target) && path.startsWith('electron/core/jobs/export/')) continue;
        strays.push(`${path} → ${target}`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('has no circle of imports among the modules that run', () => {
    const edges = new Map(sources.map((path) => [path, runtimeImports(path, text(path))]));
    expect(importCircles(edges)).toEqual([]);
    // The check itself: a circle is found, a type-only import is not one.
    const a = "import { b } from './b.ts';\nexport const a = 1;";
    const b = "import type { A } from './a.ts';\nimport { type C, c } from './c.ts';\nexport const b = 2;";
    const c = "import { a } from './a.ts';";
    const found = new Map([
      ['x/a.ts', runtimeImports('x/a.ts', a)],
      ['x/b.ts', runtimeImports('x/b.ts', b)],
      ['x/c.ts', runtimeImports('x/c.ts', c)],
    ]);
    expect(found.get('x/b.ts')).toEqual(['x/c.ts']);
    // A dynamic import counts: a command that loads another which imports it back is a circle.
    expect(runtimeImports('x/d.ts', "const { e } = await import('./e.ts');")).toEqual(['x/e.ts']);
    expect(importCircles(found).map((circle) => circle.sort())).toEqual([['x/a.ts', 'x/b.ts', 'x/c.ts']]);
    expect(
      importCircles(
        new Map([
          ['x/b.ts', runtimeImports('x/b.ts', "import type { A } from './a.ts';")],
          ['x/a.ts', ['x/b.ts']],
        ]),
      ),
    ).toEqual([]);
  });

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
    expect(scripts['lint:format']).toContain('prettier --check');
    // npm test runs every lint:* and typecheck:* script (two at a time).
    expect(scripts.test).toMatch(/^npm run check && /);
    expect(scripts.check).toMatch(/^run-p .*typecheck:\* /);
    expect(scripts.check).toMatch(/ lint:code .* lint:format lint:unused$/);
    const options = { ...(await prettier.resolveConfig(`${root}electron/core/example.ts`)), filepath: 'example.ts' };
    expect(await prettier.check('const a = {b:1}\n', options)).toBe(false);
    expect(await prettier.check('const a = { b: 1 };\n', options)).toBe(true);
    expect(options.printWidth).toBe(120);
  });

  it('puts every test file in exactly one tier, and every named tier has a script', () => {
    const tests = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'test'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((path) => /\.(test|spec)\.ts$/.test(path));
    // A file named in a tier exists, and is named once.
    for (const file of tieredFiles) expect(tests, file).toContain(file);
    expect(new Set(tieredFiles).size).toBe(tieredFiles.length);
    // Every other file is in the fast tier: a vitest file under unit/ or integration/, a browser test under e2e/.
    const unplaced = tests.filter(
      (file) =>
        !tieredFiles.includes(file) &&
        !/^test\/(unit|integration)\/.*\.test\.ts$|^test\/e2e\/[^/]+\.spec\.ts$/.test(file),
    );
    expect(unplaced).toEqual([]);
    // What the fast tier starts first is a fast-tier file that exists (a renamed file would fall back silently).
    for (const file of startFirst)
      expect(
        tests.filter((test) => !tieredFiles.includes(test)),
        file,
      ).toContain(file);
    const scripts = (JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const tier of Object.keys(tierFiles)) {
      expect(scripts[`test:${tier}`], tier).toBeDefined();
      expect(scripts['test:all'], tier).toContain(`npm run test:${tier}`);
    }
    expect(text('.ci/run')).toContain('npm run test:all');
  });
});
