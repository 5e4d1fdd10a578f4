// `sift schedule` and `sift sync --due`: a connected list synced again every day, week or month. A due run
// is a `sift sync` like any: the verdict cache answers for members already checked while their verdicts are
// young enough (unbilled), so a run checks only members new since the last, addresses that changed, and
// verdicts grown too old. Nothing runs by itself: `sift sync --due` is for cron, a systemd timer, launchd
// or Task Scheduler (docs/connectors.md shows each).
import { parseArgs } from 'node:util';
import { openScheduleStore } from '../core/connectors/schedule-store.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';
import { connectionsOf } from './connect-command.ts';
import { privateDataDir } from './data-folder.ts';
import { planChoiceFlags, readChoiceFlags } from '../core/connectors/connector.ts';
import { readChoiceOf, readChoiceOptions } from './read-choice-flags.ts';
import { planChoiceOptions, planChoicesOf } from './plan-choice-flags.ts';
import { cleanFlagsOf, runSync } from './sync-command.ts';

export const scheduleUsage = `sift schedule NAME LIST --every 1d|7d|30d [--write-back] [--archive-invalid | --unsubscribe-invalid | --list-invalid] [--merge-fields] [--include …] [--segment ID] [--keep …] [--remove …] [--base-url URL]
       sift schedule NAME LIST --off | sift schedule
       sift sync --due`;

const periods: Record<string, number> = { '1d': 1, '7d': 7, '30d': 30 };
const dayMs = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export async function runSchedule(argv: string[], io: CliIo, now = Date.now()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      every: { type: 'string' },
      'write-back': { type: 'boolean', default: false },
      ...planChoiceOptions,
      off: { type: 'boolean', default: false },
      keep: { type: 'string' },
      remove: { type: 'string' },
      'base-url': { type: 'string' },
      ...readChoiceOptions,
    },
  });
  const dataDir = privateDataDir(io);
  const store = openScheduleStore(dataDir);
  try {
    if (positionals.length === 0) {
      const schedules = store.schedules();
      if (schedules.length === 0) io.out('No schedules: `sift schedule NAME LIST --every 7d` makes one.\n');
      for (const each of schedules)
        io.out(
          `${each.connection} ${each.audience}: every ${each.everyDays} ${each.everyDays === 1 ? 'day' : 'days'}` +
            `${each.writeBack ? ', written back' : ''}; next ${day(each.nextDue)} UTC` +
            `${each.lastRun ? `; last ${day(each.lastRun)} UTC: ${each.lastOutcome}` : ''}\n`,
        );
      return exitCodes.done;
    }
    if (positionals.length !== 2) throw new CliExit(exitCodes.usage, `Usage: ${scheduleUsage}`);
    const [name, audience] = positionals as [string, string];
    if (values.off) {
      if (!store.unschedule(name, audience)) throw new CliExit(exitCodes.usage, `${name} ${audience} has no schedule.`);
      io.out(`${name} ${audience} is no longer synced on a schedule.\n`);
      return exitCodes.done;
    }
    const everyDays = periods[values.every ?? ''];
    if (everyDays === undefined) throw new CliExit(exitCodes.usage, '--every takes 1d, 7d or 30d (or give --off).');
    // The connection must be there now, and the flags right for its tool, not found wrong at 3 a.m.
    if (!connectionsOf(dataDir).get(name)) throw new CliExit(exitCodes.usage, `No connection named "${name}".`);
    const connector = connectionsOf(dataDir).open(name);
    const readChoice = readChoiceOf(connector, values);
    const choices = planChoicesOf(connector, values);
    store.schedule(
      name,
      audience,
      everyDays,
      values['write-back'],
      [...cleanFlagsOf(values), ...planChoiceFlags(connector.invalidStep, choices), ...readChoiceFlags(readChoice)],
      now + everyDays * dayMs,
    );
    io.out(
      `${name} ${audience} is synced every ${everyDays} ${everyDays === 1 ? 'day' : 'days'}` +
        `${values['write-back'] ? ', its plan written back' : ' (plans only: add --write-back to write them)'}; ` +
        `first due ${day(now + everyDays * dayMs)} UTC. Run \`sift sync --due\` from cron or a timer.\n`,
    );
    return exitCodes.done;
  } finally {
    store.close();
  }
}

/** `sift sync --due`: every schedule whose time has come, one after another; each outcome kept. */
export async function runDue(io: CliIo, now = Date.now()): Promise<number> {
  const dataDir = privateDataDir(io);
  const store = openScheduleStore(dataDir);
  const due = store.schedules().filter((each) => each.nextDue <= now);
  store.close();
  if (due.length === 0) {
    io.out('Nothing is due.\n');
    return exitCodes.done;
  }
  let worst: number = exitCodes.done;
  for (const each of due) {
    const claimed = openScheduleStore(dataDir);
    const ours = claimed.claim(each.connection, each.audience, now);
    claimed.close();
    if (!ours) {
      io.out(`Running elsewhere (the app, or another sift sync --due): ${each.connection} ${each.audience}\n`);
      continue;
    }
    io.out(
      `Due: ${each.connection} ${each.audience}${each.nextDue < now - dayMs ? ` (missed since ${day(each.nextDue)} UTC)` : ''}\n`,
    );
    let code: number;
    let outcome: string;
    try {
      const flags = [...each.cleanFlags, ...(each.writeBack ? ['--write-back'] : [])];
      code = await runSync([each.connection, each.audience, ...flags], io);
      outcome = code === exitCodes.done ? 'done' : `ended with exit ${code}`;
    } catch (error) {
      const exit = exitFor(error);
      code = exit.code;
      outcome = `failed: ${exit.message}`;
      io.err(`sift: ${each.connection} ${each.audience}: ${exit.message}\n`);
    }
    worst = Math.max(worst, code);
    const kept = openScheduleStore(dataDir);
    kept.ranSchedule(each.connection, each.audience, Date.now(), outcome);
    kept.close();
  }
  return worst;
}
