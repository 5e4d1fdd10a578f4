// A connected list synced again every day, week or month while the app is open, and the runs missed while
// it was closed caught up at start (and said so). A run is the sync a person would make on the Mailing tools
// screen: the list read, cleaned (the verdict cache answers for members checked recently, unbilled), planned,
// and written back only when the schedule says so. Schedules are shared with `sift schedule`; each run is
// claimed first, so the app and `sift sync --due` from cron never run the same one at once.
import { existsSync } from 'node:fs';
import { AppError } from '../../common/app-error.ts';
import type { ScheduleView } from '../../common/connector-schemas.ts';
import { isFinishedPhase } from '../../common/job-phases.ts';
import {
  invalidStepOf,
  planChoiceFlags,
  readChoiceFlags,
  readChoiceKey,
  subscribedOnly,
  toolNames,
  type PlanChoices,
  type ReadChoice,
} from '../connectors/connector.ts';
import { openScheduleStore, type Schedule } from '../connectors/schedule-store.ts';
import { openedWhenUsed, syncStoreFile } from '../connectors/sync-store-schema.ts';
import type { JobManager } from '../jobs/job-manager-types.ts';
import type { AppSyncs } from './app-syncs.ts';

const dayMs = 86_400_000;
/** How often an open app looks for due schedules. */
const lookEveryMs = 5 * 60_000;
/** How often a scheduled run looks at its list while it is being cleaned. */
const cleaningPollMs = 1_000;

export type AppSchedules = {
  views(): ScheduleView[];
  /** What the last catch-up at start did, in words; null when nothing was missed. */
  notice(): string | null;
  set(
    connection: string,
    audience: string,
    everyDays: number,
    writeBack: boolean,
    choices: PlanChoices,
    readChoice?: ReadChoice,
  ): void;
  off(connection: string, audience: string): void;
  /** Drops the schedules of a connection that was removed. */
  forget(connection: string): void;
  /** Runs every due schedule the app may run, one after another; answers how many ran. */
  runDue(now?: number): Promise<number>;
  /** Catches up at start, then looks again every few minutes while the app is open. */
  start(): void;
  /** Stops looking; a run under way stops where it is (its sync goes on from there next time). */
  close(): Promise<void>;
};

/** A schedule made with its own service (`sift schedule … --base-url`) is `sift sync --due`'s to run. */
const namesOwnService = (schedule: Schedule) => schedule.cleanFlags.includes('--base-url');

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export function createAppSchedules(deps: {
  dataDir: string;
  syncs: AppSyncs;
  jobs: Pick<JobManager, 'get' | 'start'>;
  log: (line: string) => void;
}): AppSchedules {
  const store = openedWhenUsed(() => openScheduleStore(deps.dataDir));
  /** No file, no schedules: looking makes none. */
  const schedules = () => (existsSync(syncStoreFile(deps.dataDir)) ? store.schedules() : []);
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let caughtUp: string | null = null;

  const untilCleaned = async (jobId: string) => {
    for (;;) {
      stopping.signal.throwIfAborted();
      const job = await deps.jobs.get(jobId);
      if (isFinishedPhase(job.phase)) return job;
      await new Promise((resolve) => setTimeout(resolve, cleaningPollMs).unref());
    }
  };

  /** One run, start to end; answers its outcome in words. */
  const runOne = async (schedule: Schedule): Promise<string> => {
    let sync = await deps.syncs.read(schedule.connection, schedule.audience, undefined, schedule.readChoice);
    if (sync.jobId === null) return 'no members to check';
    if (sync.phase === 'cleaning') {
      const job = await deps.jobs.get(sync.jobId);
      if (job.phase === 'imported') {
        if (!job.cost.covered) return `not cleaned: the account cannot pay for ${job.cost.checks} checks`;
        await deps.jobs.start(sync.jobId);
      }
      const ended = await untilCleaned(sync.jobId);
      if (ended.phase !== 'done') return `the list ended ${ended.phase}${ended.error ? `: ${ended.error}` : ''}`;
    }
    const choices = { withInvalidStep: schedule.withInvalidStep, withScoreFields: schedule.withScoreFields };
    sync = await deps.syncs.plan(sync.id, choices);
    const planned = sync.plan.reduce((sum, line) => sum + line.members, 0);
    if (sync.demo) return `planned ${planned} changes; demo verdicts are never written`;
    if (!schedule.writeBack || planned === 0)
      return planned === 0 ? 'no member needed a change' : `planned ${planned} changes: they wait to be written`;
    // A plan a person left waiting is theirs: written by the schedule only as the schedule would have made it.
    const otherChoice = deps.syncs.otherChoiceWords(sync.id, choices);
    if (otherChoice) return `not written: ${otherChoice}; it waits on the Mailing tools screen`;
    sync = await deps.syncs.writeBack(sync.id, choices);
    return `written: ${sync.written}${sync.refused > 0 ? `; refused by the tool: ${sync.refused}` : ''}`;
  };

  const runDue = async (now = Date.now()): Promise<number> => {
    let ran = 0;
    for (const schedule of schedules()) {
      if (schedule.nextDue > now || namesOwnService(schedule)) continue;
      if (!store.claim(schedule.connection, schedule.audience, now)) continue;
      let outcome: string;
      try {
        outcome = await runOne(schedule);
      } catch (error) {
        if (stopping.signal.aborted) return ran; // the app is closing: the sync goes on from here next time
        outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
      }
      store.ranSchedule(schedule.connection, schedule.audience, Date.now(), outcome);
      deps.log(`Scheduled sync of ${schedule.connection} ${schedule.audience}: ${outcome}`);
      ran += 1;
    }
    return ran;
  };
  const runOnce = (now?: number) => (running ??= runDue(now).finally(() => (running = undefined)));

  return {
    views: () =>
      schedules().map((schedule) => ({
        connection: schedule.connection,
        audience: schedule.audience,
        everyDays: schedule.everyDays,
        writeBack: schedule.writeBack,
        withInvalidStep: schedule.withInvalidStep,
        withScoreFields: schedule.withScoreFields,
        readChoice: { include: [...schedule.readChoice.include], segment: schedule.readChoice.segment },
        nextDue: schedule.nextDue,
        lastRun: schedule.lastRun,
        lastOutcome: schedule.lastOutcome,
        byApp: !namesOwnService(schedule),
      })),
    notice: () => caughtUp,
    set(connection, audience, everyDays, writeBack, { withInvalidStep, withScoreFields }, readChoice = subscribedOnly) {
      const kind = deps.syncs.kindOf(connection);
      if (!kind) throw new AppError('not_found', `No connection named "${connection}".`);
      // Kept as `sift schedule` keeps the choice, so `sift sync --due` makes the same runs.
      if ((withScoreFields || readChoiceKey(readChoice) !== '') && kind !== 'mailchimp')
        throw new AppError(
          'bad_request',
          `Score fields and a choice of members are Mailchimp's, not ${toolNames[kind]}'s.`,
        );
      const flags = [
        ...planChoiceFlags(invalidStepOf[kind], { withInvalidStep, withScoreFields }),
        ...readChoiceFlags(readChoice),
      ];
      store.schedule(connection, audience, everyDays, writeBack, flags, Date.now() + everyDays * dayMs);
    },
    off(connection, audience) {
      if (!store.unschedule(connection, audience))
        throw new AppError('not_found', `${connection} ${audience} has no schedule.`);
    },
    forget(connection) {
      if (existsSync(syncStoreFile(deps.dataDir))) store.unscheduleConnection(connection);
    },
    runDue: runOnce,
    start() {
      const now = Date.now();
      const missed = schedules().filter((each) => each.nextDue <= now && !namesOwnService(each));
      if (missed.length > 0)
        caughtUp =
          `Caught up on ${missed.length === 1 ? 'a scheduled sync' : `${missed.length} scheduled syncs`} missed while ` +
          `Sift was closed: ${missed.map((each) => `${each.connection} · ${each.audience} (due ${when(each.nextDue)} UTC)`).join(', ')}.`;
      void runOnce(now);
      timer = setInterval(() => void runOnce(), lookEveryMs).unref();
    },
    async close() {
      stopping.abort();
      clearInterval(timer);
      await running?.catch(() => undefined);
      store.close();
    },
  };
}
