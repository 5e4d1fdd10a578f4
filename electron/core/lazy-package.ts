// Packages that only some work needs (workbooks, PostgreSQL, SOCKS proxies) are loaded when first used, not when Sift
// starts: each costs megabytes in every thread that loads it, and cleaning a CSV list on Sift's own service
// needs none of them. Each is named here as a literal require, so the single executable's bundle
// (packaging/) can take it in: a require of a name it cannot see would find nothing inside that file.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const loaders = {
  pg: () => require('pg'),
  socks: () => require('socks'),
  archiver: () => require('archiver'),
  unzipper: () => require('unzipper'),
  ssf: () => require('ssf'),
  exceljs: () => require('exceljs'),
  'exceljs/lib/stream/xlsx/worksheet-reader.js': () => require('exceljs/lib/stream/xlsx/worksheet-reader.js'),
  'exceljs/lib/utils/iterate-stream.js': () => require('exceljs/lib/utils/iterate-stream.js'),
} satisfies Record<string, () => unknown>;

/** A function that loads the package `name` on its first call and answers it from then on. */
export function lazyPackage<T>(name: keyof typeof loaders): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= loaders[name]() as T);
}
