// Sift's own implementation of the verification service: one SQLite file, an HTTP server on
// 127.0.0.1, a background batch worker and a webhook delivery worker.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { apiPrefix } from '../wire/spec.ts';
import { sqliteConnection, type SqlConnection } from '../storage/sql-connection.ts';
import { openDatabase } from '../storage/sqlite.ts';
import { postgresConnection } from '../storage/postgres-connection.ts';
import { migratePostgres } from './store/postgres-schema.ts';
import { discardUnfinishedImports } from './store/batches-store.ts';
import { createBatchWorker, type BatchWorker } from './batch-worker.ts';
import { createCursorCodec } from './cursors.ts';
import { createDashboard, type Dashboard } from './dashboard.ts';
import { createServiceRequestHandler } from './http/request-handler.ts';
import { releaseUnsettledKeys } from './store/idempotency-store.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { sandboxEngine, type VerificationEngine } from './sandbox-verdicts.ts';
import { migrate, metaSecret } from './store/schema.ts';
import { serviceConfig, type ServiceConfig, type ServiceOverrides } from './service-config.ts';
import { createLiveEngine } from './engine/live-engine.ts';
import { createDeliveryWorker, type DeliveryWorker } from './webhook-delivery.ts';

export type VerificationService = {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  config: ServiceConfig;
  dashboard: Dashboard;
  db: SqlConnection;
  worker: BatchWorker;
  deliveries: DeliveryWorker;
  close(): Promise<void>;
};

export function serviceDatabasePath(dataDir: string): string {
  return join(dataDir, 'service.sqlite');
}

/** The database and its dashboard alone, for `sift service` commands and tests that manage a running service. */
export async function openServiceStore(overrides: ServiceOverrides & { dataDir: string }): Promise<{
  db: SqlConnection;
  config: ServiceConfig;
  dashboard: Dashboard;
}> {
  const config = serviceConfig(overrides);
  const db = config.database ? await openPostgres(config.database) : openSqlite(config.dataDir);
  return { db, config, dashboard: createDashboard(db, config) };
}

function openSqlite(dataDir: string): SqlConnection {
  const sqlite = openDatabase(serviceDatabasePath(dataDir));
  migrate(sqlite);
  return sqliteConnection(sqlite);
}

async function openPostgres(url: string): Promise<SqlConnection> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('The database must be a PostgreSQL URL: postgres://user:password@host:5432/name');
  }
  const db = postgresConnection(url);
  try {
    await migratePostgres(db);
  } catch (error) {
    await db.close();
    // The URL may hold a password: the message names the server only.
    throw new Error(`Sift could not open the PostgreSQL database at ${describeDatabase(url)}: ${String(error)}`, {
      cause: error,
    });
  }
  return db;
}

/** host:port/name of a database URL, without its user or password. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

export async function startVerificationService(
  overrides: ServiceOverrides & { dataDir: string },
  /**
   * Live keys' engine: the local SMTP engine (real DNS and mail-server checks) unless a caller brings its
   * own. Tests that need scripted live verdicts without a mail server pass `sandboxEngine`.
   */
  liveEngine: 'smtp' | VerificationEngine = 'smtp',
): Promise<VerificationService> {
  const { db, config, dashboard } = await openServiceStore(overrides);
  await discardUnfinishedImports(db);
  await releaseUnsettledKeys(db);
  const engines = { live: liveEngine === 'smtp' ? createLiveEngine(db, config) : liveEngine, sandbox: sandboxEngine };
  const handler = createServiceRequestHandler({
    db,
    config,
    limiter: createRateLimiter(),
    cursors: createCursorCodec(await metaSecret(db, 'cursor_key')),
    engines,
  });
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const worker = createBatchWorker(db, config, engines);
  const deliveries = createDeliveryWorker(db, config);
  worker.start();
  deliveries.start();
  return {
    baseUrl: `http://${config.host}:${port}${apiPrefix}`,
    port,
    config,
    dashboard,
    db,
    worker,
    deliveries,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await worker.stop();
      await engines.live.stop?.();
      await deliveries.stop();
      await db.close();
    },
  };
}
