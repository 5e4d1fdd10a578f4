// Sift's own implementation of the verification service: one SQLite file (or a PostgreSQL database that
// several processes share), an HTTP server on 127.0.0.1, a background batch worker and a webhook
// delivery worker.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { apiPrefix } from '../wire/spec.ts';
import { sqliteConnection, type SqlConnection } from '../storage/sql-connection.ts';
import { openDatabase } from '../storage/sqlite.ts';
import { postgresConnection } from '../storage/postgres-connection.ts';
import { migratePostgres } from './store/postgres-schema.ts';
import { createBatchWorker } from './batch-worker.ts';
import { createCursorCodec } from './cursors.ts';
import { createDashboard, type Dashboard } from './dashboard.ts';
import { createServiceRequestHandler } from './http/request-handler.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { sandboxEngine } from './engines/sandbox-engine.ts';
import { type VerificationEngine } from './engines/engine.ts';
import { migrate, metaSecret, serviceSchemaVersion } from './store/schema.ts';
import { migrateOrRestore, NewerDataError, type StoreFile } from '../storage/store-versions.ts';
import { serviceConfig, type ServiceConfig, type ServiceOverrides } from './service-config.ts';
import { createLiveEngine } from './engines/live/live-engine.ts';
import { smtpSettings, type SmtpSettings } from './engines/live/smtp-settings.ts';
import { forgetPort25Finding } from './store/port25-store.ts';
import { forgetSenderRefusals } from './store/sender-refusals-store.ts';
import { createDeliveryWorker } from './webhook-delivery.ts';
import { joinService } from './service-presence.ts';
import type { KeyMode } from '../wire/spec.ts';
import { maskUrlCredentials } from '../../common/url-credentials.ts';
import { answerOnSocket, connectNotAllowed, unreadableRequest } from './http/error-responses.ts';

export type VerificationService = {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  config: ServiceConfig;
  dashboard: Dashboard;
  db: SqlConnection;
  /** This process's id among the service processes sharing the database. */
  processId: string;
  /** New live-check settings, for every conversation started from now on (the app's Settings). */
  reconfigure(smtp: Partial<SmtpSettings>): Promise<void>;
  close(): Promise<void>;
};

function serviceDatabasePath(dataDir: string): string {
  return join(dataDir, 'service.sqlite');
}

/** The service's store in its data folder, with the schema version this Sift writes (store-versions.ts). */
export const serviceStoreFiles = (dataDir: string): StoreFile[] => [
  { path: serviceDatabasePath(dataDir), known: serviceSchemaVersion },
];

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
  const path = serviceDatabasePath(dataDir);
  const sqlite = openDatabase(path);
  migrateOrRestore(path, sqlite, () => migrate(sqlite));
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
    if (error instanceof NewerDataError) throw error;
    // The URL may hold a password: the message names the server only.
    throw new Error(
      `Sift could not open the PostgreSQL database at ${describeDatabase(url)}: ${maskUrlCredentials(String(error))}`,
      {
        cause: error,
      },
    );
  }
  return db;
}

/** host:port/name of a database URL, without its user or password. */
export function describeDatabase(url: string): string {
  // A password with a `/` in it, not percent-encoded, makes the URL unreadable: shown masked then.
  if (!URL.canParse(url)) return maskUrlCredentials(url);
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

type Engines = Record<KeyMode, VerificationEngine>;

/**
 * The service's HTTP API on 127.0.0.1, with its background workers unless `role` is 'api' (then other
 * processes on the same PostgreSQL database run them: `startServiceWorkers`).
 */
export async function startVerificationService(
  overrides: ServiceOverrides & { dataDir: string },
  /**
   * Live keys' engine: the local SMTP engine (real DNS and mail-server checks) unless a caller brings its
   * own. Tests that need scripted live verdicts without a mail server pass `sandboxEngine`.
   */
  liveEngine: 'smtp' | VerificationEngine = 'smtp',
  role: 'all' | 'api' = 'all',
): Promise<VerificationService> {
  const { db, config, dashboard } = await openServiceStore(overrides);
  const presence = await joinService(db, config, role, () => stopForGood(service.close));
  const engines = enginesFor(db, config, liveEngine, presence.id);
  const handler = createServiceRequestHandler({
    db,
    config,
    limiter: createRateLimiter(db),
    processId: presence.id,
    cursors: createCursorCodec(await metaSecret(db, 'cursor_key')),
    engines,
  });
  const server = createServer(handler);
  server.on('clientError', (_error, socket) => answerOnSocket(socket, unreadableRequest()));
  server.on('connect', (_request, socket) => answerOnSocket(socket, connectNotAllowed()));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    // The port is taken, say: nothing of this process may stay behind, telling the others it is alive.
    await engines.live.stop?.();
    await presence.stop();
    await db.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const background = role === 'all' ? startBackground(db, config, engines, presence.id) : undefined;
  let closing: Promise<void> | undefined;
  const service: VerificationService = {
    baseUrl: `http://${config.host}:${port}${apiPrefix}`,
    port,
    config,
    dashboard,
    db,
    processId: presence.id,
    async reconfigure(smtp) {
      const next = smtpSettings(smtp);
      const egress = (settings: SmtpSettings) => settings.proxies.map((proxy) => proxy.label).join(' ');
      // Port 25 found blocked (or open) by another way out says nothing about the new one.
      if (egress(next) !== egress(config.smtp)) await forgetPort25Finding(db);
      // Servers refused the old sender (its address, name or envelope): the new one is judged afresh.
      const sender = (settings: SmtpSettings) => `${egress(settings)} ${settings.helo} ${settings.mailFrom}`;
      if (sender(next) !== sender(config.smtp)) await forgetSenderRefusals(db);
      config.smtp = next;
      await engines.live.reconfigure?.(next);
    },
    // Once: a second close (a signal during a close, a test's own and its cleanup's) waits for the first.
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await handler.settled();
        await background?.stop();
        await engines.live.stop?.();
        await presence.stop();
        await db.close();
      })()),
  };
  return service;
}

/** A process the others took for gone stops, and its exit says it failed (a supervisor starts it again). */
function stopForGood(close: () => Promise<void>): void {
  process.exitCode = 1;
  close().catch((error: unknown) => console.error('sift service: could not stop cleanly:', error));
}

export type ServiceWorkers = { config: ServiceConfig; db: SqlConnection; processId: string; close(): Promise<void> };

/** The background workers alone (`sift service --role worker`): no HTTP server. */
export async function startServiceWorkers(
  overrides: ServiceOverrides & { dataDir: string },
  liveEngine: 'smtp' | VerificationEngine = 'smtp',
): Promise<ServiceWorkers> {
  const { db, config } = await openServiceStore(overrides);
  const presence = await joinService(db, config, 'worker', () => stopForGood(workers.close));
  const engines = enginesFor(db, config, liveEngine, presence.id);
  const background = startBackground(db, config, engines, presence.id);
  const workers: ServiceWorkers = {
    config,
    db,
    processId: presence.id,
    async close() {
      await background.stop();
      await engines.live.stop?.();
      await presence.stop();
      await db.close();
    },
  };
  return workers;
}

function enginesFor(
  db: SqlConnection,
  config: ServiceConfig,
  liveEngine: 'smtp' | VerificationEngine,
  processId: string,
): Engines {
  return {
    live: liveEngine === 'smtp' ? createLiveEngine(db, config, processId) : liveEngine,
    sandbox: sandboxEngine,
  };
}

/** The batch worker and the webhook deliveries, started. */
function startBackground(db: SqlConnection, config: ServiceConfig, engines: Engines, processId: string) {
  const worker = createBatchWorker(db, config, engines, processId);
  const deliveries = createDeliveryWorker(db, config, processId);
  worker.start();
  deliveries.start();
  return {
    async stop() {
      await worker.stop();
      await deliveries.stop();
    },
  };
}
