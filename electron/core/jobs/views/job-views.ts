// A job as the renderer sees it: the overview of the job on screen and the rows of History. Progress of
// a running job comes from the runner's live counts; a finished job brings its summary.
import type { JobListItem, JobOverview } from '../../../common/contract.ts';
import type { JobProgressView } from '../../../common/job-schemas.ts';
import { isFinishedPhase } from '../../../common/job-phases.ts';
import { describeService } from '../../connections/service-ref.ts';
import type { Cost } from '../run/index.ts';
import { displayNameOf, hasDemoVerdicts, type JobRecord, type JobStore } from '../store/index.ts';
import { summariseJob } from './list-summary.ts';

const noPrecheck = { toCheck: 0, duplicates: 0, badSyntax: 0, noAddress: 0, role: 0, disposable: 0, suggestions: 0 };

export function jobViews(
  store: JobStore,
  costs: ReadonlyMap<string, Cost>,
  live: ReadonlyMap<string, JobProgressView>,
) {
  function progressOf(job: JobRecord): JobProgressView {
    // Verdicts reused from earlier lists are not sent.
    const cached = job.precheck?.cached ?? 0;
    const toSend = Math.min((job.precheck?.toCheck ?? 0) - cached, job.settings.sendLimit ?? Number.POSITIVE_INFINITY);
    return live.get(job.id) ?? { checked: job.checked, total: toSend };
  }

  /** Once sent, the key it went with says; before, the key it would go with. */
  const demoOf = (job: JobRecord) =>
    job.keyMode !== null ? hasDemoVerdicts(job) : costs.get(job.id)?.mode === 'sandbox' || hasDemoVerdicts(job);

  const summaryOf = (job: JobRecord) => (isFinishedPhase(job.phase) ? { summary: summariseJob(store, job) } : {});

  return {
    progressOf,

    overview(job: JobRecord): JobOverview {
      const progress = progressOf(job);
      return {
        jobId: job.id,
        fileName: displayNameOf(job),
        phase: job.phase,
        rows: job.rowsTotal,
        headers: job.headers,
        columnIndex: job.columnIndex,
        hasHeader: job.hasHeader,
        precheck: job.precheck ?? noPrecheck,
        ownService: job.service.kind === 'embedded',
        demo: demoOf(job),
        useCache: job.settings.useCache !== false,
        cost: costs.get(job.id) ?? {
          checks: progress.total,
          cached: job.precheck?.cached ?? 0,
          mode: 'sandbox',
          covered: true,
        },
        progress,
        ...summaryOf(job),
        error: job.error,
      };
    },

    listItem(job: JobRecord): JobListItem {
      return {
        jobId: job.id,
        fileName: displayNameOf(job),
        phase: job.phase,
        rows: job.rowsTotal,
        service: describeService(job.service),
        demo: demoOf(job),
        progress: progressOf(job),
        createdAt: new Date(job.createdAt).toISOString(),
        ...summaryOf(job),
        error: job.error,
      };
    },
  };
}
