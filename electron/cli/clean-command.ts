// `sift clean`: the job Sift exists for, from a terminal or a script. The sequence itself is the
// app's too (core/jobs/list-cleaner.ts); this file reads the flags and prints.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { privateDataDir } from './data-folder.ts';
import { jobSettings, outputFormats, type OutputFormat, type RemovedFlags } from '../core/jobs/job-settings.ts';
import { chooseSheet } from './sheet-choice.ts';
import { hasDemoVerdicts, openJobStore } from '../core/jobs/store/index.ts';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';
import { createCleaner } from '../core/jobs/list-cleaner.ts';
import { namedResults } from '../core/wire/spec.ts';
import { describeCost, describeSummary, progressPrinter } from './clean-report.ts';
import { describeRefusedSender } from '../core/service/engines/live/sender-refusal.ts';
import { writeListReport } from '../core/jobs/report/report-file.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';
import { connect, type Connection } from './service-connection.ts';
import { verifyUsage } from './verify-command.ts';
import { cacheUsage } from './cache-command.ts';
import { suppressUsage } from './suppress-command.ts';
import { oneOffSuppression } from './one-off-suppression.ts';
import { rulesSource } from '../core/rules/index.ts';
import { readScoreWeightsFile, scoreWeightsSource } from '../core/scoring/score-weights-file.ts';

/** How `sift clean` is typed (its help adds examples). */
export const cleanSynopsis = `Usage: sift clean <input.csv|.xlsx|.tsv|.txt> [--column NAME] [--sheet NAME] [--format csv|xlsx] [--keep valid,catch_all:70] [--remove disposable,role,typos|none]
                  [--per-status] [--report] [--out DIR] [--base-url URL] [--json] [--resume | --restart] [--no-bom] [--allow-formulas]
                  [--no-cache | --max-age DAYS] [--suppress FILE] [--score-weights FILE]`;

/** What `sift clean` does with a key, a list cleaned before and the verdict cache. */
export const cleanDetails = `The API key is read from SIFT_API_KEY only. With no --base-url and no key, Sift's own service runs in-process
with a sandbox key. Running the same command again on a list that was cleaned writes its files again and
sends nothing; --restart reads it again. --report also writes <list>.report.html, a report to hand on that prints
to at most two pages. Verdicts earlier lists got are reused while young enough (invalid
90 days, valid and catch_all 30, unknown never; --max-age DAYS for all); --no-cache checks every address.
Every checked row gets sift_score (0-100: how likely mail reaches it, from what Sift knows) and its reasons;
--keep valid,catch_all:70,unknown:80 keeps catch-all addresses scoring 70 or more and unknown ones 80 or
more, and runs again with other thresholds send nothing. --score-weights FILE ({"starts":{"catch_all":60},
"moves":{"role":-10}}) replaces the table's points for this run; without it, those set in the app's Settings.
Rules per domain (sift rules) decide their rows before anything is sent.`;

export const cleanUsage = `${cleanSynopsis}
       ${verifyUsage}
       ${cacheUsage}
       ${suppressUsage}
${cleanDetails}`;

/** A comma-separated flag value whose every part is one of `allowed`. */
function parseList(flag: string, value: string, allowed: readonly string[]): string[] {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = parts.filter((part) => !allowed.includes(part));
  if (parts.length === 0 || unknown.length > 0) {
    const not = unknown.length ? ` (not ${unknown.join(', ')})` : '';
    throw new CliExit(exitCodes.usage, `${flag} takes ${allowed.join(', ')}${not}.`);
  }
  return parts;
}

/**
 * `--keep valid,catch_all:70,unknown:80`: the verdicts kept, each with the score (0-100) it must reach to
 * be kept, if any (risk-score.ts).
 */
export function parseKeep(value: string): { keep: string[]; keepAtScore: Record<string, number> } {
  const keepAtScore: Record<string, number> = {};
  const parts = value.split(',').map((part) => {
    const [result, threshold] = part.trim().split(':');
    if (threshold !== undefined) {
      const score = Number(threshold);
      if (!/^\d+$/.test(threshold) || score > 100)
        throw new CliExit(exitCodes.usage, `--keep ${result}:${threshold}: a score is a whole number from 0 to 100.`);
      keepAtScore[result!] = score;
    }
    return result!;
  });
  return { keep: parseList('--keep', parts.join(','), namedResults), keepAtScore };
}

/** `--max-age`: a number of days, whole or not, from 0 (reuse nothing) up. */
function parseMaxAge(value: string): number {
  const days = Number(value);
  if (value.trim() === '' || !Number.isFinite(days) || days < 0)
    throw new CliExit(exitCodes.usage, `--max-age takes a number of days, 0 or more (not "${value}").`);
  return days;
}

function parseRemove(value: string): RemovedFlags {
  const parts = parseList('--remove', value, ['role', 'disposable', 'typos', 'none']);
  if (parts.includes('none') && parts.length > 1) throw new CliExit(exitCodes.usage, '--remove none stands alone.');
  return { role: parts.includes('role'), disposable: parts.includes('disposable'), typos: parts.includes('typos') };
}

/** The list was read and its cost said, and the run asked for no more (`sift sync --plan`): nothing was sent. */
class EstimateOnly extends Error {}

/** `estimateOnly`: read the list and say its cost (on stdout), sending nothing; the job waits, resumable. */
export async function runClean(argv: string[], io: CliIo, options: { estimateOnly?: boolean } = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      column: { type: 'string' },
      keep: { type: 'string', default: 'valid' },
      remove: { type: 'string', default: 'disposable' },
      'per-status': { type: 'boolean', default: false },
      report: { type: 'boolean', default: false },
      out: { type: 'string' },
      'base-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      restart: { type: 'boolean', default: false },
      'no-bom': { type: 'boolean', default: false },
      'allow-formulas': { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      'max-age': { type: 'string' },
      suppress: { type: 'string', multiple: true, default: [] },
      sheet: { type: 'string' },
      format: { type: 'string', default: 'csv' },
      'score-weights': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new CliExit(exitCodes.usage, cleanUsage);
  if (values.resume && values.restart) throw new CliExit(exitCodes.usage, 'Give --resume or --restart, not both.');
  const { keep, keepAtScore } = parseKeep(values.keep);
  const remove = parseRemove(values.remove);
  const [format] = parseList('--format', values.format, outputFormats) as OutputFormat[];
  const maxAge = values['max-age'] === undefined ? undefined : parseMaxAge(values['max-age']);
  if (maxAge !== undefined && values['no-cache'])
    throw new CliExit(exitCodes.usage, 'Give --no-cache or --max-age, not both.');
  // `npm run sift -- clean list.csv` runs in the project folder; INIT_CWD is where the person typed it.
  const cwd = io.env.INIT_CWD ?? process.cwd();
  const inputPath = resolve(cwd, positionals[0]!);
  if (!(await stat(inputPath).catch(() => null))?.isFile())
    throw new CliExit(exitCodes.usage, `No such file: ${positionals[0]}`);
  const sheet = await chooseSheet(inputPath, positionals[0]!, values.sheet, io);
  const outDir = values.out === undefined ? dirname(inputPath) : resolve(cwd, values.out);
  if (!(await stat(outDir).catch(() => null))?.isDirectory())
    throw new CliExit(exitCodes.usage, `No such folder: ${values.out}`);

  const dataDir = privateDataDir(io);
  const weightsFile = values['score-weights'];
  let scoreWeights;
  try {
    scoreWeights = weightsFile
      ? readScoreWeightsFile(resolve(cwd, weightsFile))
      : scoreWeightsSource(dataDir).current();
  } catch (error) {
    throw new CliExit(exitCodes.usage, error instanceof Error ? error.message : String(error));
  }
  // A one-off do-not-mail list is read (and refused when unusable) before anything else happens.
  const suppression = await oneOffSuppression(dataDir, values.suppress, cwd, io).catch((error: unknown) => {
    throw exitFor(error);
  });
  const store = openJobStore(dataDir);
  let connection: Connection | undefined;
  const clearLine = () => io.interactive && io.err('\r\x1b[K');
  try {
    // Connection settings are checked first, so a usage mistake leaves no job behind.
    // Sift's own service starts on its thread while the list is read.
    connection = connect(values['base-url'], io, dataDir);
    const settings = jobSettings({
      column: values.column,
      ...(sheet === undefined ? {} : { sheet }),
      format,
      keep,
      // Always given: a run without thresholds drops those an earlier run of the same list set.
      keepAtScore,
      scoreWeights,
      remove,
      perStatusFiles: values['per-status'],
      neutraliseFormulas: !values['allow-formulas'],
      bom: !values['no-bom'],
      useCache: !values['no-cache'],
      ...(maxAge === undefined ? {} : { cacheMaxAgeDays: maxAge }),
      ...(connection.addressesPerBatch ? { addressesPerBatch: connection.addressesPerBatch } : {}),
    });
    const cleaner = createCleaner(store, {
      cacheDir: dataDir,
      warn: (message) => io.err(`sift: ${message}\n`),
      suppression,
      rules: rulesSource(dataDir),
    });
    const { job, exported } = await cleaner.cleanFile(
      connection,
      { inputPath, settings, policy: { resume: values.resume, restart: values.restart }, outDir },
      {
        signal: io.signal,
        onProgress: progressPrinter(io),
        onCost: (cost) => {
          clearLine();
          if (!options.estimateOnly) return io.err(describeCost(cost));
          io.out(describeCost(cost) || 'Nothing to check: every address is settled before sending.\n');
          throw new EstimateOnly();
        },
        // Sift's own service is stopped once every verdict is in: the export gets its memory.
        afterChecking: () => connection!.close(),
        onFinishedJob: () => {
          if (options.estimateOnly) {
            io.out('This list was cleaned before: nothing is left to check.\n');
            throw new EstimateOnly();
          }
          io.err(
            'This list was cleaned before: writing its files again, nothing is sent (--restart checks it again).\n',
          );
        },
      },
    );
    clearLine();
    if (values.report) {
      const baseUrl = values['base-url'] ?? io.env.SIFT_BASE_URL;
      const service = baseUrl === undefined ? { kind: 'own' as const } : { kind: 'hosted' as const, baseUrl };
      const report = await writeListReport(store, job, dirname(exported.cleanedPath), service, dataDir).catch(
        (error) => {
          throw new CliExit(
            exitCodes.output,
            `Could not write the report: ${error instanceof Error ? error.message : error}`,
          );
        },
      );
      exported.files.push({ kind: 'report', path: report });
    }
    const s = exported.summary;
    if (connection.mode === 'live' && s.unknown > 0) await tellRefusedSender(connection, io);
    if (values.json) {
      const report = {
        job: job.id,
        status: job.phase,
        cleaned: exported.cleanedPath,
        annotated: exported.annotatedPath,
        files: exported.files,
        ...(hasDemoVerdicts(job) ? { demo: true, note: demoVerdictsNote } : {}),
        summary: s,
      };
      io.out(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      const label = (kind: string) => `${kind[0]!.toUpperCase()}${kind.slice(1).replace('_', '-')}:`;
      const files = exported.files.map((file) => `${label(file.kind).padEnd(12)}${file.path}\n`).join('');
      io.out(describeSummary(s, hasDemoVerdicts(job)) + files);
    }
    if (job.phase !== 'done') throw new CliExit(exitCodes.service, job.error ?? `The job ended ${job.phase}.`);
    return exitCodes.done;
  } catch (error) {
    clearLine();
    if (error instanceof EstimateOnly) return exitCodes.done;
    const exit = exitFor(error);
    if (exit.code === exitCodes.interrupted) {
      io.err(`\nStopped. Run \`sift clean ${positionals[0]} --resume\` to continue where it stopped.\n`);
    }
    if (exit.code === exitCodes.output)
      exit.message += ' The job is kept: run the same command again to write the files.';
    // The service could not be reached or kept failing: what was sent and read is kept.
    if (exit.code === exitCodes.service && !(error instanceof CliExit))
      exit.message += ` What was sent and read is kept: run \`sift clean ${positionals[0]} --resume\` to go on where it stopped (nothing is sent or billed twice).`;
    throw exit;
  } finally {
    await connection?.close();
    store.close();
  }
}

/**
 * Live verdicts came back unknown: when the service says mail servers refuse its sending address, that is
 * why, and the person is told once what to do. Asking is best-effort: a service that does not say is fine.
 */
async function tellRefusedSender(connection: Connection, io: CliIo): Promise<void> {
  const account = await connection
    .start()
    .then((client) => client.getAccount())
    .catch(() => undefined);
  const told = describeRefusedSender(account?.sender);
  if (told) io.err(`sift: ${told}\n`);
}
