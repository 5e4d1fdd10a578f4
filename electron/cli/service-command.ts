// `sift service`: runs the embedded verification service on its own, and manages it (the spec's dashboard).
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/app-paths.ts';
import {
  describeDatabase,
  openServiceStore,
  startServiceWorkers,
  serviceStoreFiles,
  startVerificationService,
  type ServiceWorkers,
} from '../core/service/verification-service.ts';
import { join } from 'node:path';
import { openDataFolder } from '../core/storage/store-versions.ts';
import { appVersion } from '../core/own-files.ts';
import type { Dashboard } from '../core/service/dashboard.ts';
import { allowsPrivateWebhooks, parsePort, UsageError } from './cli-options.ts';
import { smtpFlagOptions, smtpFlagsUsage, smtpSettingsFromFlags } from './smtp-flags.ts';
import { checkSenderBlocklists } from '../core/service/engines/live/blocklist-lookup.ts';
import { checkPort25, describePort25 } from '../core/service/engines/live/port25-check.ts';
import { checkProxies, describeProxyCheck } from '../core/service/engines/live/proxy-check.ts';
import { describeTimeLeft, politePaceOf } from '../common/durations.ts';
import { wireEstimate } from '../core/service/batch-objects.ts';
import { watchSender } from './sender-watch.ts';

export const serviceUsage = `Usage:
  sift service [--port N] [--data DIR] [--database URL] [--role R] [engine flags]   run the service
                (--port, or SIFT_PORT; a free port when neither is given)
  sift service keys [--data DIR]                list keys (masked)
  sift service keys create [--live] [--label L]  create a key (shown once)
  sift service keys revoke KEY_ID
  sift service top-up CREDITS                   add credits to the local account
  sift service threshold CREDITS|off            when credits.low fires
  sift service webhooks add URL                 add an endpoint (its secret is shown once); public
                                                addresses only, unless --allow-private-webhooks
  sift service webhooks                         list endpoints
  sift service deliveries                       list webhook deliveries
  sift service deliveries replay DELIVERY_ID
  sift service status                           running batches: how far, and time left at a polite pace

--database postgres://user:password@host:5432/name (or SIFT_DATABASE_URL) keeps the service's data in
PostgreSQL instead of DIR/service.sqlite; every command above takes it.
--role all|api|worker: the HTTP API on 127.0.0.1 and the background workers (all, the default), the API
alone, or the workers alone. Several processes with any roles may share one PostgreSQL database.
--allow-private-webhooks (or SIFT_ALLOW_PRIVATE_WEBHOOKS=yes): webhooks may go to this computer, link-local
and private networks, which are refused otherwise (any key holder's batch makes the service POST there).

${smtpFlagsUsage}`;

function serviceDataDir(data: string | undefined): string {
  return data ?? join(defaultDataDir(), 'service');
}

export async function runServiceCommand(argv: string[], out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: process.env.SIFT_PORT || '0' },
      data: { type: 'string' },
      database: { type: 'string' },
      live: { type: 'boolean', default: false },
      label: { type: 'string' },
      role: { type: 'string', default: 'all' },
      'allow-private-webhooks': { type: 'boolean', default: false },
      ...smtpFlagOptions,
    },
  });
  // Said on stderr: the listing commands' output stays what scripts read.
  const dataDir = openDataFolder(serviceDataDir(values.data), serviceStoreFiles, appVersion(), (line) =>
    console.error(`sift: ${line}`),
  );
  // From the environment by preference in scripts: a URL on the command line (with its password) is seen by `ps`.
  const database = values.database ?? (process.env.SIFT_DATABASE_URL || undefined);
  const allowPrivateWebhooks = allowsPrivateWebhooks(values['allow-private-webhooks']);
  const place = { dataDir, allowPrivateWebhooks, ...(database ? { database } : {}) };
  const [command, sub, arg] = positionals;

  if (command === undefined) {
    const role = values.role;
    if (role !== 'all' && role !== 'api' && role !== 'worker') {
      throw new UsageError(`--role is all, api or worker, not ${role}.\n\n${serviceUsage}`);
    }
    if (role !== 'all' && !database) {
      throw new UsageError(
        `--role ${role} shares the work with other processes, which needs a PostgreSQL database (--database URL).`,
      );
    }
    const port = parsePort(values.port);
    const smtp = smtpSettingsFromFlags(values);
    const where = database ? `PostgreSQL at ${describeDatabase(database)}, uploads in ${dataDir}` : dataDir;
    let running: ServiceWorkers;
    let dashboard: Dashboard | undefined;
    if (role === 'worker') {
      running = await startServiceWorkers({ ...place, smtp });
      out(`Sift verification workers started (process ${running.processId}).`);
    } else {
      const service = await startVerificationService({ ...place, port, smtp }, 'smtp', role);
      out(`Sift verification service at ${service.baseUrl}`);
      ({ dashboard } = service);
      running = service;
    }
    out(`Live checks say EHLO ${running.config.smtp.helo} and MAIL FROM:<${running.config.smtp.mailFrom}>.`);
    const { smtp: engine } = running.config;
    if (role !== 'api' && engine.proxies.length > 0) {
      out(
        `Live checks go out through ${engine.proxies.map((proxy) => proxy.label).join(', ')}; DNS is asked from here.`,
      );
      // In the background, as the port-25 check below.
      void checkProxies(running.db, engine, running.config.now).then(
        (checks) => checks.forEach((check) => out(describeProxyCheck(check, engine.port))),
        (error: unknown) => out(`Proxies: not checked (${String(error)}).`),
      );
    } else if (role !== 'api') {
      // In the background: the service answers at once, and the finding follows when the check is done.
      void checkPort25(running.db, engine, running.config.now).then(
        (check) => out(describePort25(check, engine.port)),
        (error: unknown) => out(`Port ${engine.port}: not checked (${String(error)}).`),
      );
    }
    if (role !== 'api') {
      // The sending address on the blocklists servers query most: said once, in the background too.
      void checkSenderBlocklists(engine).then(
        (check) => out(check.message),
        (error: unknown) => out(`Blocklists: not checked (${String(error)}).`),
      );
    }
    const stopWatching = role === 'api' ? () => {} : watchSender(running.db, running.config, out);
    if (dashboard && (await dashboard.listKeys()).length === 0) {
      const { key } = await dashboard.createKey('sandbox', 'First sandbox key');
      out(`A sandbox key was made for you (shown only now): ${key}`);
    }
    if (allowPrivateWebhooks) {
      out('Webhooks may go to this computer and private networks (--allow-private-webhooks).');
    }
    out(`Data: ${where}. Press Ctrl-C to stop.`);
    const stop = async () => {
      stopWatching();
      await running.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }

  // The engine flags say which proxies the workers use: a budget is per way out (the status command's estimate).
  const { db, dashboard } = await openServiceStore({ ...place, smtp: smtpSettingsFromFlags(values) });
  try {
    if (command === 'keys' && sub === undefined) {
      for (const key of await dashboard.listKeys())
        out(`${key.id}  ${key.masked}  ${key.mode}  ${key.state}  ${key.label}`);
    } else if (command === 'keys' && sub === 'create') {
      const { key, record } = await dashboard.createKey(
        values.live ? 'live' : 'sandbox',
        values.label ?? (values.live ? 'Live key' : 'Sandbox key'),
      );
      out(`${record.id}  ${key}`);
      out('This is the only time the full key is shown.');
    } else if (command === 'keys' && sub === 'revoke' && arg) {
      out(`${(await dashboard.revokeKey(arg)).id} revoked`);
    } else if (command === 'top-up' && sub) {
      out(`Balance: ${(await dashboard.topUp(Number(sub))).balance}`);
    } else if (command === 'threshold' && sub) {
      await dashboard.setLowBalanceThreshold(sub === 'off' ? null : Number(sub));
      out(sub === 'off' ? 'credits.low is off' : `credits.low fires below ${sub}`);
    } else if (command === 'webhooks' && sub === 'add' && arg) {
      const endpoint = await dashboard.createWebhookEndpoint(arg);
      out(`${endpoint.id}  ${endpoint.url}`);
      out(`Signing secret (shown only now): ${endpoint.secret}`);
    } else if (command === 'webhooks' && sub === undefined) {
      for (const endpoint of await dashboard.listWebhookEndpoints()) {
        const inside = endpoint.inside
          ? `  (${endpoint.inside}: delivered only by a service run with --allow-private-webhooks)`
          : '';
        out(`${endpoint.id}  ${endpoint.url}${inside}`);
      }
    } else if (command === 'deliveries' && sub === undefined) {
      for (const d of await dashboard.listDeliveries())
        out(`${d.id}  ${d.eventType}  ${d.status}  attempts=${d.attempts}  ${d.lastError ?? ''}`);
    } else if (command === 'status' && sub === undefined) {
      const running = await dashboard.runningBatches();
      if (running.length === 0) out('No batch is running.');
      for (const batch of running) {
        const left = batch.estimate
          ? `; ${describeTimeLeft(batch.estimate.secondsLeft, politePaceOf(wireEstimate(batch.estimate)))}`
          : '';
        const done = `${batch.done.toLocaleString('en')} of ${batch.unique.toLocaleString('en')} checked`;
        out(`${batch.id}  ${batch.mode}  ${JSON.stringify(batch.name)}  ${done}${left}`);
      }
    } else if (command === 'deliveries' && sub === 'replay' && arg) {
      await dashboard.replayDelivery(arg);
      out(`${arg} queued again`);
    } else {
      throw new UsageError(serviceUsage);
    }
  } finally {
    await db.close();
  }
}
