// A job as the renderer sees it: its overview, its row in History, and the files an export writes.
import { z } from 'zod';
import { jobPhases } from './job-phases.ts';
import { listSummarySchema, precheckCountsSchema } from './list-schemas.ts';

const count = z.number().int().nonnegative();
export const jobIdSchema = z.string().regex(/^job_[0-9a-f]{16}$/);

/**
 * Where a running job stands: addresses checked of those sent; while it is sent, the parts (batches) that
 * have one of those there are now; once the pace is known, the seconds left at that pace.
 */
export const jobProgressSchema = z.object({
  checked: count,
  total: count,
  parts: z.object({ sent: count, total: count }).optional(),
  etaSeconds: count.optional(),
  /** The seconds left are the service's politeness bound (each mail server at its pace), and where most of them go. */
  politePace: z
    .object({
      largest: z.object({ name: z.string(), pending: count }).optional(),
      learning: z.boolean().optional(),
      confirming: z.boolean().optional(),
    })
    .optional(),
});
export type JobProgressView = z.infer<typeof jobProgressSchema>;

export const jobOverviewSchema = z.object({
  jobId: jobIdSchema,
  fileName: z.string(),
  phase: z.enum(jobPhases),
  rows: count,
  headers: z.array(z.string()),
  columnIndex: z.number().int(),
  hasHeader: z.boolean(),
  precheck: precheckCountsSchema,
  /** Sent to Sift's own service (in the app), not a hosted one. */
  ownService: z.boolean(),
  /** Its verdicts are (or will be) a sandbox key's scripted demo verdicts: no mail server is asked. */
  demo: z.boolean(),
  /** Verdicts earlier lists got are reused for it (the verdict cache), or every address is checked. */
  useCache: z.boolean(),
  cost: z.object({
    checks: count,
    /** Addresses an earlier list's verdict stands for (the verdict cache): not sent, not paid for. */
    cached: count,
    mode: z.enum(['live', 'sandbox']),
    freeRemaining: count.optional(),
    balance: z.number().int().optional(),
    covered: z.boolean(),
  }),
  progress: jobProgressSchema,
  summary: listSummarySchema.optional(),
  error: z.string().nullable(),
});
export type JobOverview = z.infer<typeof jobOverviewSchema>;

export const jobListItemSchema = z.object({
  jobId: jobIdSchema,
  fileName: z.string(),
  phase: z.enum(jobPhases),
  rows: count,
  /** Where it was sent, in words ("Sift's own service (sandbox)", or a hosted service's name). */
  service: z.string(),
  /** Its verdicts are a sandbox key's scripted demo verdicts. */
  demo: z.boolean(),
  progress: jobProgressSchema,
  createdAt: z.string(),
  /** The verdict split, once the job has ended. */
  summary: listSummarySchema.optional(),
  error: z.string().nullable(),
});
export type JobListItem = z.infer<typeof jobListItemSchema>;

/** What the outputs are written as: CSV (the default), or Excel workbooks; the summary is JSON either way. */
export const outputFormats = ['csv', 'xlsx'] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** Files an export can write: the three every export writes, then the report and one per verdict or flag when asked. */
const exportKinds = [
  'cleaned',
  'annotated',
  'summary',
  'report',
  'valid',
  'invalid',
  'catch_all',
  'unknown',
  'role',
  'disposable',
  'suppressed',
  /** A sync's changes the mailing tool refused, with its words (connectors:refusals). */
  'refused',
  /** Every outcome read back, with what Sift had said before (outcomes:export). */
  'outcomes',
] as const;
export type ExportKind = (typeof exportKinds)[number];

export const exportFileSchema = z.object({
  kind: z.enum(exportKinds),
  name: z.string(),
  sizeBytes: count,
  /** Relative to the app's page; the transport makes it a link (see SiftBridge.files.downloadLink). */
  downloadPath: z.string(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;
