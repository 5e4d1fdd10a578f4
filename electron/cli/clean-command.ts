// `sift clean` and `sift verify`: the job Sift exists for, from a terminal or a script.
// Exit codes: 0 done; 2 bad usage or unusable input (nothing written); 3 authentication failed;
// 4 out of credits; 5 the batch failed or was canceled, or the service stayed unreachable; 130 stopped by Ctrl-C.
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../common/app-error.ts';
import { ServiceClientError } from '../core/client/client-errors.ts';
import { createServiceClient, type ServiceClient } from '../core/client/service-client.ts';
import { defaultDataDir } from '../core/app/app-paths.ts';
import { precheckAddress } from '../core/email/address-precheck.ts';
import { estimateCost, prepareJob, runJob, type JobProgress } from '../core/jobs/clean-job.ts';
import { openJobStore, type JobRecord } from '../core/jobs/job-store.ts';
import { exportJob } from '../core/jobs/list-export.ts';
import { inputFingerprint } from '../core/jobs/input-fingerprint.ts';
import { startEmbeddedService } from '../core/service/embedded-service.ts';
import { namedResults } from '../core/wire/spec.ts';

export const exitCodes = { done: 0, usage: 2, authentication: 3, credits: 4, service: 5, interrupted: 130 } as const;

export class CliExit extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export type CliIo = {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal: progress is drawn only there. */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
};

export const cleanUsage = `Usage: sift clean <input.csv> [--column NAME] [--keep valid,catch_all] [--out DIR] [--base-url URL] [--json] [--resume | --restart]
                  [--no-bom] [--allow-formulas]
       sift verify <email> [--base-url URL] [--json]
The API key is read from SIFT_API_KEY only. With no --base-url and no key, Sift's own service runs in-process with a sandbox key.`;

type Connection = { client: ServiceClient; close(): Promise<void> };

async function connect(baseUrl: string | undefined, io: CliIo, dataDir: string): Promise<Connection> {
  const apiKey = io.env.SIFT_API_KEY;
  const url = baseUrl ?? io.env.SIFT_BASE_URL;
  if (url === undefined && !apiKey) {
    const embedded = await startEmbeddedService(dataDir);
    return {
      client: createServiceClient({ baseUrl: embedded.baseUrl, apiKey: embedded.apiKey }),
      close: () => embedded.close(),
    };
  }
  if (!apiKey)
    throw new CliExit(
      exitCodes.usage,
      'Set SIFT_API_KEY to the key for that service (keys are never passed as flags).',
    );
  if (url === undefined)
    throw new CliExit(exitCodes.usage, 'With SIFT_API_KEY set, also give --base-url (or SIFT_BASE_URL).');
  try {
    return { client: createServiceClient({ baseUrl: url, apiKey }), close: async () => {} };
  } catch (error) {
    if (error instanceof ServiceClientError) throw new CliExit(exitCodes.usage, error.message);
    throw error;
  }
}

function exitFor(error: unknown): CliExit {
  if (error instanceof CliExit) return error;
  if (error instanceof AppError) return new CliExit(exitCodes.usage, error.message);
  if (error instanceof ServiceClientError) {
    if (error.kind === 'authentication') return new CliExit(exitCodes.authentication, error.message);
    if (error.kind === 'payment') return new CliExit(exitCodes.credits, error.message);
    if (error.kind === 'configuration' || error.kind === 'bad_request')
      return new CliExit(exitCodes.usage, error.message);
    return new CliExit(exitCodes.service, error.message);
  }
  if (error instanceof Error && error.name === 'AbortError') return new CliExit(exitCodes.interrupted, 'Stopped.');
  return new CliExit(exitCodes.service, error instanceof Error ? error.message : String(error));
}

function progressPrinter(io: CliIo) {
  let last = '';
  return (progress: JobProgress) => {
    if (!io.interactive) return;
    const line =
      progress.phase === 'importing'
        ? `Reading list… ${progress.rows.toLocaleString('en')} rows`
        : `Verifying… ${progress.checked.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`;
    if (line !== last) io.err(`\r${line}\x1b[K`);
    last = line;
  };
}

export async function runClean(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      column: { type: 'string' },
      keep: { type: 'string', default: 'valid' },
      out: { type: 'string' },
      'base-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      restart: { type: 'boolean', default: false },
      'no-bom': { type: 'boolean', default: false },
      'allow-formulas': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new CliExit(exitCodes.usage, cleanUsage);
  if (values.resume && values.restart) throw new CliExit(exitCodes.usage, 'Give --resume or --restart, not both.');
  const keep = values.keep
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  const unknownKeep = keep.filter((value) => !(namedResults as readonly string[]).includes(value));
  if (keep.length === 0 || unknownKeep.length > 0) {
    throw new CliExit(
      exitCodes.usage,
      `--keep takes verdicts from ${namedResults.join(', ')}${unknownKeep.length ? ` (not ${unknownKeep.join(', ')})` : ''}.`,
    );
  }
  // `npm run sift -- clean list.csv` runs in the project folder; INIT_CWD is where the person typed it.
  const cwd = io.env.INIT_CWD ?? process.cwd();
  const inputPath = resolve(cwd, positionals[0]!);
  const inputInfo = await stat(inputPath).catch(() => null);
  if (!inputInfo?.isFile()) throw new CliExit(exitCodes.usage, `No such file: ${positionals[0]}`);
  const outDir = values.out === undefined ? dirname(inputPath) : resolve(cwd, values.out);
  if (!(await stat(outDir).catch(() => null))?.isDirectory())
    throw new CliExit(exitCodes.usage, `No such folder: ${values.out}`);

  const dataDir = defaultDataDir(io.env);
  const store = openJobStore(join(dataDir, 'jobs.sqlite'));
  let connection: Connection | undefined;
  try {
    const print = progressPrinter(io);
    // Connection settings are checked first, so a usage mistake leaves no job behind.
    connection = await connect(values['base-url'], io, dataDir);
    const currentFingerprint = await inputFingerprint(inputPath);
    let job: JobRecord | undefined = store.unfinishedJobFor(inputPath);
    if (job && !values.resume && !values.restart) {
      throw new CliExit(
        exitCodes.usage,
        `An unfinished job for this file exists. Run again with --resume to continue it, or --restart to start over.`,
      );
    }
    if (job && values.restart) {
      store.setPhase(job.id, 'canceled', 'Replaced by a restart.');
      job = undefined;
    }
    if (job && job.fingerprint !== currentFingerprint) {
      throw new CliExit(
        exitCodes.usage,
        'The file changed since its job started; run with --restart to clean it again.',
      );
    }
    job ??= store.createJob(inputPath, currentFingerprint, {
      column: values.column,
      keep,
      neutraliseFormulas: !values['allow-formulas'],
      bom: !values['no-bom'],
      maxBatchSize: 50_000,
    });

    job = await prepareJob(store, job, { onProgress: print, signal: io.signal });
    const cost = await estimateCost(store, job, connection.client, io.signal);
    if (io.interactive) io.err('\r\x1b[K');
    if (cost.checks > 0) {
      const how =
        cost.mode === 'sandbox'
          ? 'sandbox key: no credits are spent'
          : `${cost.freeRemaining ?? '?'} free checks left this month, balance ${cost.balance ?? '?'}`;
      io.err(`${cost.checks.toLocaleString('en')} addresses to check (${how}).\n`);
    }
    if (!cost.covered) {
      throw new CliExit(
        exitCodes.credits,
        `Not enough credits: ${cost.checks} checks needed, ${(cost.freeRemaining ?? 0) + (cost.balance ?? 0)} available. Nothing was sent.`,
      );
    }
    job = await runJob(store, job, connection.client, { onProgress: print, signal: io.signal });
    if (io.interactive) io.err('\r\x1b[K');
    const exported = await exportJob(store, job, outDir);
    if (values.json) {
      io.out(
        `${JSON.stringify({ job: job.id, status: job.phase, cleaned: exported.cleanedPath, annotated: exported.annotatedPath, summary: exported.summary }, null, 2)}\n`,
      );
    } else {
      const s = exported.summary;
      io.out(
        `${s.submitted.toLocaleString('en')} addresses, ${s.unique.toLocaleString('en')} unique: ${s.valid} valid, ${s.invalid} invalid, ${s.catch_all} catch-all, ${s.unknown} unknown; ${s.billed} billed.\n`,
      );
      io.out(
        `Cleaned:   ${exported.cleanedPath}\nAnnotated: ${exported.annotatedPath}\nSummary:   ${exported.summaryPath}\n`,
      );
    }
    if (job.phase !== 'done') throw new CliExit(exitCodes.service, job.error ?? `The job ended ${job.phase}.`);
    return exitCodes.done;
  } catch (error) {
    const exit = exitFor(error);
    if (exit.code === exitCodes.interrupted) {
      io.err(`\nStopped. Run \`sift clean ${positionals[0]} --resume\` to continue where it stopped.\n`);
    }
    throw exit;
  } finally {
    await connection?.close();
    store.close();
  }
}

export async function runVerify(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'base-url': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new CliExit(exitCodes.usage, cleanUsage);
  const check = precheckAddress(positionals[0]!);
  let verdict: { email: string; result: string; billed: boolean; reason?: string; suggestion?: string };
  if (!check.ok) {
    verdict = { email: positionals[0]!.trim(), result: 'invalid', billed: false, reason: check.reason };
  } else {
    const connection = await connect(values['base-url'], io, defaultDataDir(io.env)).catch((error: unknown) => {
      throw exitFor(error);
    });
    try {
      verdict = {
        ...(await connection.client.verify(check.address, { signal: io.signal })),
        ...(check.suggestion ? { suggestion: check.suggestion } : {}),
      };
    } catch (error) {
      throw exitFor(error);
    } finally {
      await connection.close();
    }
  }
  if (values.json) io.out(`${JSON.stringify(verdict)}\n`);
  else
    io.out(
      `${verdict.email}: ${verdict.result}${verdict.reason ? ` (${verdict.reason})` : ''}${verdict.suggestion ? `; did you mean ${verdict.suggestion}?` : ''}\n`,
    );
  return exitCodes.done;
}
