// Every store in the app's data folder, with the schema version this Sift writes: what store-versions.ts
// checks before any of them opens (a newer one refused untouched, an older one copied before its migration).
import { join } from 'node:path';
import { verdictCacheFiles, verdictCacheVersion } from '../cache/verdict-cache-schema.ts';
import { jobStoreFiles } from '../jobs/store/index.ts';
import { serviceStoreFiles } from '../service/verification-service.ts';
import type { StoreFile } from '../storage/store-versions.ts';
import { suppressionVersion } from '../suppression/suppression-store.ts';
import { rulesFile, rulesVersion } from '../rules/index.ts';
import { syncStoreFile, syncStoreVersion } from '../connectors/sync-store-schema.ts';
import { outcomeStoreFile, outcomeStoreVersion } from '../outcomes/index.ts';

export function appStoreFiles(dataDir: string): StoreFile[] {
  return [
    ...jobStoreFiles(dataDir),
    { path: verdictCacheFiles(dataDir).db, known: verdictCacheVersion },
    { path: join(dataDir, 'suppression.sqlite'), known: suppressionVersion },
    { path: rulesFile(dataDir), known: rulesVersion },
    { path: syncStoreFile(dataDir), known: syncStoreVersion },
    { path: outcomeStoreFile(dataDir), known: outcomeStoreVersion },
    // No schema version of their own yet (0): a later one that sets one is newer than this Sift.
    { path: join(dataDir, 'service-reach.sqlite'), known: 0 },
    { path: join(dataDir, 'send-log.sqlite'), known: 0 },
    ...serviceStoreFiles(join(dataDir, 'service')),
  ];
}
