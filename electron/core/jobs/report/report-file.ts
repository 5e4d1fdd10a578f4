// Writes a finished list's report beside its other files: `<list>.report.html`, with `.demo` in its name
// for a demo's verdicts, as the cleaned and annotated files have.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { ExportFile } from '../../../common/job-schemas.ts';
import type { ServiceClients } from '../../connections/service-ref.ts';
import { basename, extname, join } from 'node:path';
import { appVersion } from '../../own-files.ts';
import { existsSync } from 'node:fs';
import { outcomeStoreFile, outcomesIn } from '../../outcomes/index.ts';
import {
  displayNameOf,
  exportedFiles,
  exportFolder,
  hasDemoVerdicts,
  type JobRecord,
  type JobStore,
} from '../store/index.ts';
import { listBreakdown, summariseJob } from '../views/index.ts';
import { renderListReport, type ReportInput } from './list-report.ts';

/** Who checked a job's list, as far as the caller knows: Sift's own service, or a hosted one by its address. */
export type ReportService = { kind: 'own' } | { kind: 'hosted'; baseUrl: string };

/** The service's host as a person knows it; a name that is not a URL as it is. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export async function writeListReport(
  store: JobStore,
  job: JobRecord,
  outDir: string,
  service: ReportService,
  /** The data folder whose outcomes the report sets beside Sift's verdicts (History's ledger). */
  dataDir?: string,
  now = new Date(),
): Promise<string> {
  const source = displayNameOf(job);
  const demo = hasDemoVerdicts(job);
  const path = join(outDir, `${basename(source, extname(source))}${demo ? '.demo' : ''}.report.html`);
  const list = store.list(job.id);
  const checkedBy: ReportInput['checkedBy'] = demo
    ? { kind: 'demo' }
    : service.kind === 'hosted'
      ? { kind: 'hosted', host: hostOf(service.baseUrl) }
      : { kind: 'own' };
  const html = renderListReport({
    listName: source,
    checkedAt: new Date(job.updatedAt),
    madeAt: now,
    checkedBy,
    summary: summariseJob(store, job),
    breakdown: listBreakdown(list, job.settings.scoreWeights ?? {}),
    keep: job.settings.keep,
    keepAtScore: job.settings.keepAtScore ?? {},
    remove: job.settings.remove,
    version: appVersion(),
    ...(dataDir && existsSync(outcomeStoreFile(dataDir)) ? { outcomes: await outcomesIn(dataDir).ledger() } : {}),
  });
  await writeFile(`${path}.partial`, html);
  await rename(`${path}.partial`, path);
  return path;
}

/** The app's "Save report…": written into the job's export folder, and answered as a file to download. */
export async function writeJobReport(
  store: JobStore,
  job: JobRecord,
  dataDir: string,
  clients: ServiceClients,
): Promise<ExportFile> {
  const outDir = exportFolder(dataDir, job.id);
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  const service: ReportService =
    job.service.kind === 'embedded'
      ? { kind: 'own' }
      : { kind: 'hosted', baseUrl: (await clients.clientFor(job.service)).serviceName };
  const path = await writeListReport(store, job, outDir, service, dataDir);
  return (await exportedFiles(job.id, [{ kind: 'report' as const, path }]))[0]!;
}
