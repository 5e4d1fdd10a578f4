// The one contract between the renderer and the main process: every call `domain:verb` with a zod schema
// for its request and its result; every push event `domain:didSomething`, exposed to the renderer as
// `domain.onDidSomething`. Both transports (Electron IPC and the loopback web host) are built from it alone.
import { z } from 'zod';
import { jobPhases } from './job-phases.ts';
import { explorerQuerySchema, explorerRowSchema, listBreakdownSchema, listSummarySchema } from './list-schemas.ts';
export type { ExplorerFilter, ExplorerRow, ListBreakdown, ListSummary, PrecheckCounts } from './list-schemas.ts';
export { verdictFilters } from './list-schemas.ts';
import {
  accountViewSchema,
  appearanceSchema,
  connectionTestSchema,
  engineSettingsSchema,
  keyModeSchema,
  liveCheckTestSchema,
  heloCheckSchema,
  heloNameSchema,
  proxyTextSchema,
  settingsViewSchema,
  singleCheckSchema,
} from './settings-schemas.ts';
import { serviceOverviewSchema } from './service-dashboard-schemas.ts';
import { cacheStatsSchema } from './cache-schemas.ts';
import { suppressionCalls } from './suppression-schemas.ts';
import { outcomeCalls } from './outcome-schemas.ts';
import { connectorCalls, connectorEvents } from './connector-schemas.ts';
import {
  exportFileSchema,
  jobIdSchema,
  jobListItemSchema,
  jobOverviewSchema,
  jobProgressSchema,
  outputFormats,
} from './job-schemas.ts';

export type { ExportFile, ExportKind, JobListItem, JobOverview } from './job-schemas.ts';

export type {
  AccountView,
  ConnectionTestResult,
  EngineSettings,
  LiveCheckTest,
  SettingsView,
  SingleCheck,
} from './settings-schemas.ts';
export type { ServiceOverview } from './service-dashboard-schemas.ts';
export type { CacheStats } from './cache-schemas.ts';
export type { SuppressionAdded, SuppressionEntryView, SuppressionPage } from './suppression-schemas.ts';
export type { OutcomeImport, OutcomeLedger } from './outcome-schemas.ts';
import { ruleCalls } from './rule-schemas.ts';
import { scoreWeightCalls } from './score-weight-schemas.ts';
export type { ScoreLineView } from './score-weight-schemas.ts';
export type { AudienceView, ConnectionView, ConnectionsPage, SyncView } from './connector-schemas.ts';
export type { RuleView, RulesSet, RulesView } from './rule-schemas.ts';

import {
  appInfoSchema,
  updateStatusSchema,
  fileRefSchema,
  headerNameSchema,
  listPreviewRequestSchema,
  listPreviewSchema,
} from './file-schemas.ts';

export type { AppInfo, FileRef, ListPreview, UpdateStatus } from './file-schemas.ts';

/** Verdicts the renderer offers for the cleaned file; others the service may send still show in summaries. */
export const keepableResults = ['valid', 'catch_all', 'unknown', 'invalid'] as const;

const count = z.number().int().nonnegative();

const baseUrlField = z.string().trim().min(1).max(2048);
const apiKeyField = z.string().trim().min(1).max(512);

export const calls = {
  'app:getInfo': { request: z.strictObject({}), result: appInfoSchema },
  /** Ends the app (only where `app:getInfo` says `canQuit`): every list is left resumable, as on Ctrl-C. */
  'app:quit': { request: z.strictObject({}), result: z.object({}) },
  /** A newer Sift: asked of the feed at most daily; installed (as `sift update` checks it) only when asked. */
  'app:updateStatus': { request: z.strictObject({}), result: updateStatusSchema },
  'app:installUpdate': { request: z.strictObject({}), result: z.object({ message: z.string() }) },
  'lists:preview': { request: listPreviewRequestSchema, result: listPreviewSchema },
  /** Reads and pre-checks a list (nothing is sent or billed) and says what cleaning it will cost. */
  'jobs:create': {
    request: z.strictObject({
      file: fileRefSchema,
      column: headerNameSchema.optional(),
      sheet: headerNameSchema.optional(),
    }),
    result: jobOverviewSchema,
  },
  /** Reads a workbook not yet cleaned again from another of its sheets (its email column found anew). */
  'jobs:chooseSheet': {
    request: z.strictObject({ jobId: jobIdSchema, sheet: headerNameSchema }),
    result: jobOverviewSchema,
  },
  'jobs:get': { request: z.strictObject({ jobId: jobIdSchema }), result: jobOverviewSchema },
  /** The first rows of a job's own input, as `lists:preview` shows a dropped file. */
  'jobs:preview': {
    request: z.strictObject({ jobId: jobIdSchema, maxRows: z.number().int().min(1).max(200).default(20) }),
    result: listPreviewSchema,
  },
  /** Reads a list not yet cleaned again with another email column, from the job's own input. */
  'jobs:remap': {
    request: z.strictObject({ jobId: jobIdSchema, column: headerNameSchema }),
    result: jobOverviewSchema,
  },
  /** Reads a list not yet cleaned again, reusing verdicts earlier lists got (the verdict cache) or checking all. */
  'jobs:useCache': {
    request: z.strictObject({ jobId: jobIdSchema, useCache: z.boolean() }),
    result: jobOverviewSchema,
  },
  /** What the verdict cache (shared with `sift clean`) holds, and how long each verdict is reused. */
  'cache:stats': { request: z.strictObject({}), result: cacheStatsSchema },
  /** Forgets every kept verdict: the next lists check every address. */
  'cache:clear': { request: z.strictObject({}), result: z.object({ forgotten: count }) },
  ...suppressionCalls,
  ...outcomeCalls,
  ...ruleCalls,
  ...scoreWeightCalls,
  ...connectorCalls,
  /** Removes a job with its list, its copy of the input and its exports. */
  'jobs:delete': { request: z.strictObject({ jobId: jobIdSchema }), result: z.object({ freedBytes: count }) },
  /** Desktop app only: a copy of an exported file where the person chooses (the system's Save dialog). */
  'exports:saveCopy': {
    request: z.strictObject({ downloadPath: z.string().max(1000) }),
    result: z.object({ savedTo: z.string().nullable() }),
  },
  /** Desktop app only: the exported file shown in the system's file manager. */
  'exports:showInFolder': { request: z.strictObject({ downloadPath: z.string().max(1000) }), result: z.object({}) },
  /** A page of a list's rows with their verdicts, filtered and searched in main (never the whole list here). */
  'jobs:rows': {
    request: explorerQuerySchema.extend({ jobId: jobIdSchema }),
    result: z.object({ total: count, rows: z.array(explorerRowSchema) }),
  },
  /** Accepts (or takes back) typo suggestions, for one address or every address at a domain. */
  'jobs:acceptSuggestions': {
    request: z.strictObject({
      jobId: jobIdSchema,
      target: z.union([
        z.strictObject({ addressId: z.number().int().positive() }),
        z.strictObject({ domain: z.string().min(1).max(253) }),
      ]),
      accept: z.boolean(),
    }),
    result: z.object({ changed: count }),
  },
  /** Mailbox providers and the most used domains of a job's addresses. */
  'jobs:breakdown': { request: z.strictObject({ jobId: jobIdSchema }), result: listBreakdownSchema },
  /** What Sift's data folder takes on disk. */
  'jobs:dataUsage': { request: z.strictObject({}), result: z.object({ bytes: count }) },
  'settings:get': { request: z.strictObject({}), result: settingsViewSchema },
  /** One GET /account with a URL and key (the saved key when none is given); the key is not kept. */
  'settings:testConnection': {
    request: z.strictObject({ baseUrl: baseUrlField, apiKey: apiKeyField.optional() }),
    result: connectionTestSchema,
  },
  /** Saves a hosted service and makes it the one new lists go to; the key goes to main's vault, never back. */
  'settings:saveHosted': {
    request: z.strictObject({
      baseUrl: baseUrlField,
      label: z.string().trim().max(100),
      apiKey: apiKeyField.optional(),
    }),
    result: settingsViewSchema,
  },
  'settings:useOwn': { request: z.strictObject({ mode: keyModeSchema }), result: settingsViewSchema },
  /** Sift's own service on a fixed loopback port for other tools, from the next start of Sift. */
  'settings:setSharing': {
    request: z.strictObject({ enabled: z.boolean(), port: z.number().int().min(1024).max(65535) }),
    result: settingsViewSchema,
  },
  /**
   * How Sift's own service checks live addresses (HELO name, MAIL FROM, resolvers, pacing, proxies): its next
   * conversations follow at once. A proxy's password goes to main's vault, never back.
   */
  'settings:setEngine': { request: engineSettingsSchema, result: settingsViewSchema },
  /**
   * Tries port 25 from this computer now, directly and through each proxy given (a saved proxy's password
   * shown as ••• is the saved one), and says what it found. Nothing is saved.
   */
  'settings:testLiveChecks': {
    request: z.strictObject({ proxies: z.array(proxyTextSchema).max(8) }),
    result: liveCheckTestSchema,
  },
  /** What DNS (the live checks' resolvers) says of a HELO name, forward and back. Nothing is saved. */
  'settings:checkHelo': { request: z.strictObject({ helo: heloNameSchema }), result: heloCheckSchema },
  'settings:setAppearance': { request: z.strictObject({ appearance: appearanceSchema }), result: settingsViewSchema },
  /** Removes the hosted service and its key from this computer. */
  'settings:forgetHosted': { request: z.strictObject({}), result: settingsViewSchema },
  'account:get': { request: z.strictObject({}), result: accountViewSchema },
  /** One address checked now on the service lists go to; bad syntax is answered without a call. */
  'checks:verify': { request: z.strictObject({ email: z.string().max(320) }), result: singleCheckSchema },
  'checks:recent': { request: z.strictObject({}), result: z.array(singleCheckSchema) },
  /** Sift's own service, as its dashboard shows it (the spec keeps keys and webhooks out of HTTP). */
  'service:overview': { request: z.strictObject({}), result: serviceOverviewSchema },
  /** A new key: its secret is in this answer only. */
  'service:createKey': {
    request: z.strictObject({ mode: keyModeSchema, label: z.string().trim().min(1).max(100) }),
    result: z.object({ key: z.string(), overview: serviceOverviewSchema }),
  },
  'service:revokeKey': { request: z.strictObject({ keyId: z.string().max(100) }), result: serviceOverviewSchema },
  /** A new webhook endpoint: its signing secret is in this answer only. */
  'service:addWebhook': {
    request: z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048) }),
    result: z.object({ secret: z.string(), overview: serviceOverviewSchema }),
  },
  'service:removeWebhook': {
    request: z.strictObject({ endpointId: z.string().max(100) }),
    result: serviceOverviewSchema,
  },
  'service:replayDelivery': {
    request: z.strictObject({ deliveryId: z.string().max(100) }),
    result: serviceOverviewSchema,
  },
  'service:setThreshold': {
    request: z.strictObject({ credits: z.number().int().nonnegative().nullable() }),
    result: serviceOverviewSchema,
  },
  /** The most recent jobs, newest first, so a person can return to one after closing the window. */
  'jobs:list': { request: z.strictObject({}), result: z.array(jobListItemSchema) },
  /** Sends the list to the service and reads the verdicts back, in the background. */
  /** `limit`: send only the first this many addresses, when the credits cover no more. */
  'jobs:start': {
    request: z.strictObject({ jobId: jobIdSchema, limit: z.number().int().positive().optional() }),
    result: jobOverviewSchema,
  },
  'jobs:cancel': { request: z.strictObject({ jobId: jobIdSchema }), result: jobOverviewSchema },
  /** Checks again what a canceled or failed list left unchecked; what was checked is kept. */
  'jobs:retry': { request: z.strictObject({ jobId: jobIdSchema }), result: jobOverviewSchema },
  /** Writes the finished list's report (one HTML file that prints to at most two pages) for download. */
  'jobs:report': { request: z.strictObject({ jobId: jobIdSchema }), result: exportFileSchema },
  'jobs:export': {
    request: z.strictObject({
      jobId: jobIdSchema,
      keep: z.array(z.enum(keepableResults)).min(1).max(4),
      /** The score a kept verdict must reach (0 to 100), where one is set: none, every one of them. */
      keepAtScore: z.partialRecord(z.enum(keepableResults), z.number().int().min(0).max(100)).optional(),
      /** Left out of the cleaned list whatever their verdict; the job's own choice when absent. */
      remove: z.strictObject({ role: z.boolean(), disposable: z.boolean(), typos: z.boolean() }).optional(),
      /** Also one file per verdict and flag. */
      perStatusFiles: z.boolean().optional(),
      /** CSV or Excel workbooks; the job's own choice when absent. */
      format: z.enum(outputFormats).optional(),
    }),
    result: z.object({ files: z.array(exportFileSchema), summary: listSummarySchema }),
  },
} as const;

export const events = {
  ...connectorEvents,
  /** The desktop app's menu asked to open a file (File ▸ Open…) or a list from Open Recent. */
  'app:didRequestOpen': z.union([
    z.strictObject({ path: z.string().min(1).max(4096) }),
    z.strictObject({ jobId: jobIdSchema }),
  ]),
  /** Light, dark or the system's was chosen: every window and the desktop shell follow at once. */
  'settings:didChangeAppearance': z.object({ appearance: appearanceSchema }),
  'lists:didPreview': z.object({ fileName: z.string(), rowsShown: z.number().int() }),
  /** `error`: why a job stopped on its way (it stays resumable), or null. */
  'jobs:didProgress': jobProgressSchema.extend({
    jobId: jobIdSchema,
    phase: z.enum(jobPhases),
    error: z.string().nullable(),
  }),
} as const;

type Calls = typeof calls;
/** What a person chooses before an export: what the cleaned list keeps and which files are written. */
export type ExportChoices = Required<Omit<z.output<(typeof calls)['jobs:export']['request']>, 'jobId'>>;
export type CallName = keyof Calls;
export type EventName = keyof typeof events;
/** What the renderer passes (defaults may be left out). */
export type CallRequest<N extends CallName> = z.input<Calls[N]['request']>;
/** What a handler receives after parsing (defaults filled in). */
export type ParsedRequest<N extends CallName> = z.output<Calls[N]['request']>;
export type CallResult<N extends CallName> = z.output<Calls[N]['result']>;
export type EventPayload<N extends EventName> = z.output<(typeof events)[N]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

/** What every call answers on either transport: errors travel as data, so their codes survive IPC. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'unreadable_file'
  /** An output could not be written (folder missing or read-only, disk full); nothing is lost, export again. */
  | 'unwritable'
  /** The input changed since it was checked; verdicts would land on the wrong rows. */
  | 'input_changed'
  /** The service refused a call or could not be reached; the message says which and what to do. */
  | 'service_error'
  | 'internal';
