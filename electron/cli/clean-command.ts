// `sift clean`: the job Sift exists for, from a terminal or a script. The sequence itself is the
// app's too (core/jobs/list-cleaner.ts); this file reads the flags and prints.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/app/app-paths.ts';
import type { JobProgress, Cost } from '../core/jobs/run/index.ts';
import { jobSettings, type RemovedFlags } from '../core/jobs/job-settings.ts';
import type { ListSummary } from '../common/contract.ts';
import { hasDemoVerdicts, openJobStore } from '../core/jobs/store/index.ts';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';
import { createCleaner } from '../core/jobs/list-cleaner.ts';
import { namedResults } from '../core/wire/spec.ts';
import { describeTimeLeft } from '../common/durations.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';
import { connect, type Connection } from './service-connection.ts';
import { verifyUsage } from './verify-command.ts';

export const cleanUsage = `Usage: sift clean <input.csv> [--column NAME] [--keep valid,catch_all] [--remove disposable,role,typos|none]
                  [--per-status] [--out DIR] [--base-url URL] [--json] [--resume | --restart] [--no-bom] [--allow-formulas]
       ${verifyUsage}
The API key is read from SIFT_API_KEY only. With no --base-url and no key, Sift's own service runs in-process
with a sandbox key. Running the same command again on a list that was cleaned writes its files again and
sends nothing; --restart checks it again.`;

const count = (value: number) => value.toLocaleString('en');

function progressPrinter(io: CliIo) {
  let last = '';
  return (progress: JobProgress) => {
    if (!io.interactive) return;
    let line: string;
    if (progress.phase === 'importing') line = `Reading list… ${count(progress.rows)} rows`;
    else {
      const { checked, total, etaSeconds, politePace, parts } = progress;
      const sending = parts ? `Sending… ${count(parts.sent)} of ${count(parts.total)} batches sent; ` : '';
      const left = etaSeconds ? `, ${describeTimeLeft(etaSeconds, politePace)}` : '';
      line = `${sending}${parts ? 'checked' : 'Verifying…'} ${count(checked)} of ${count(total)}${left}`;
    }
    if (line !== last) io.err(`\r${line}\x1b[K`);
    last = line;
  };
}

function describeCost(cost: Cost): string {
  // Only what the service said: a balance it does not give is not printed as a number.
  const known = [
    ...(cost.freeRemaining === undefined ? [] : [`${count(cost.freeRemaining)} free checks left this month`]),
    ...(cost.balance === undefined ? [] : [`balance ${count(cost.balance)}`]),
  ];
  const how =
    cost.mode === 'sandbox'
      ? 'sandbox key: demo verdicts, no mail server is asked, no credits are spent'
      : known.length > 0
        ? known.join(', ')
        : 'the service does not say its balance';
  return `${count(cost.checks)} addresses to check (${how}).\n`;
}

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

function parseRemove(value: string): RemovedFlags {
  const parts = parseList('--remove', value, ['role', 'disposable', 'typos', 'none']);
  if (parts.includes('none') && parts.length > 1) throw new CliExit(exitCodes.usage, '--remove none stands alone.');
  return { role: parts.includes('role'), disposable: parts.includes('disposable'), typos: parts.includes('typos') };
}

/** The list's funnel in a sentence or three: every row counted once; demo verdicts say what they are. */
function describeSummary(s: ListSummary, demo: boolean): string {
  const other = Object.entries(s.other_results).map(([result, n]) => `, ${count(n)} ${result}`);
  const verdicts =
    `${count(s.valid)} valid, ${count(s.invalid)} invalid, ${count(s.catch_all)} catch-all, ` +
    `${count(s.unknown)} unknown${other.join('')}${s.unverified > 0 ? `, ${count(s.unverified)} not checked` : ''}`;
  return (
    `${count(s.rows)} rows: ${count(s.no_address)} without an address, ${count(s.bad_syntax)} bad syntax, ` +
    `${count(s.duplicates)} duplicates, ${count(s.to_check)} to check.\n` +
    (demo
      ? `Demo verdicts: ${verdicts}.\n${demoVerdictsNote}\n`
      : `Checked: ${verdicts}; ${count(s.billed)} billed.\n`) +
    `Flagged: ${count(s.role)} role, ${count(s.disposable)} disposable, ${count(s.typos)} likely typos.\n`
  );
}

export async function runClean(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      column: { type: 'string' },
      keep: { type: 'string', default: 'valid' },
      remove: { type: 'string', default: 'disposable' },
      'per-status': { type: 'boolean', default: false },
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
  const keep = parseList('--keep', values.keep, namedResults);
  const remove = parseRemove(values.remove);
  // `npm run sift -- clean list.csv` runs in the project folder; INIT_CWD is where the person typed it.
  const cwd = io.env.INIT_CWD ?? process.cwd();
  const inputPath = resolve(cwd, positionals[0]!);
  if (!(await stat(inputPath).catch(() => null))?.isFile())
    throw new CliExit(exitCodes.usage, `No such file: ${positionals[0]}`);
  const outDir = values.out === undefined ? dirname(inputPath) : resolve(cwd, values.out);
  if (!(await stat(outDir).catch(() => null))?.isDirectory())
    throw new CliExit(exitCodes.usage, `No such folder: ${values.out}`);

  const dataDir = defaultDataDir(io.env);
  const store = openJobStore(dataDir);
  let connection: Connection | undefined;
  const clearLine = () => io.interactive && io.err('\r\x1b[K');
  try {
    // Connection settings are checked first, so a usage mistake leaves no job behind.
    connection = await connect(values['base-url'], io, dataDir);
    const settings = jobSettings({
      column: values.column,
      keep,
      remove,
      perStatusFiles: values['per-status'],
      neutraliseFormulas: !values['allow-formulas'],
      bom: !values['no-bom'],
      ...(connection.addressesPerBatch ? { addressesPerBatch: connection.addressesPerBatch } : {}),
    });
    const { job, exported } = await createCleaner(store).cleanFile(
      connection.client,
      { inputPath, settings, policy: { resume: values.resume, restart: values.restart }, outDir },
      {
        signal: io.signal,
        onProgress: progressPrinter(io),
        onCost: (cost) => {
          clearLine();
          if (cost.checks > 0) io.err(describeCost(cost));
        },
        onFinishedJob: () =>
          io.err(
            'This list was cleaned before: writing its files again, nothing is sent (--restart checks it again).\n',
          ),
      },
    );
    clearLine();
    const s = exported.summary;
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
      const files = exported.files.map((file) => `${label(file.kind).padEnd(11)}${file.path}\n`).join('');
      io.out(describeSummary(s, hasDemoVerdicts(job)) + files);
    }
    if (job.phase !== 'done') throw new CliExit(exitCodes.service, job.error ?? `The job ended ${job.phase}.`);
    return exitCodes.done;
  } catch (error) {
    clearLine();
    const exit = exitFor(error);
    if (exit.code === exitCodes.interrupted) {
      io.err(`\nStopped. Run \`sift clean ${positionals[0]} --resume\` to continue where it stopped.\n`);
    }
    if (exit.code === exitCodes.output)
      exit.message += ' The job is kept: run the same command again to write the files.';
    throw exit;
  } finally {
    await connection?.close();
    store.close();
  }
}
