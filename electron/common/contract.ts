// The one contract between the renderer and the main process.
// Every call is `domain:verb` with a zod schema for its request and its result;
// every push event is `domain:didSomething`, exposed to the renderer as `domain.onDidSomething`.
// Both transports (Electron IPC and the loopback web host) are built from this file alone.
import { z } from 'zod';

/** A file the user dropped or chose, as main can find it. */
export const fileRefSchema = z.discriminatedUnion('kind', [
  // Electron: the preload asks Electron for the dropped file's path.
  z.strictObject({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  // Web host: the browser streams the file to main first and gets this id back.
  z.strictObject({ kind: z.literal('upload'), uploadId: z.string().regex(/^upl_[A-Za-z0-9_-]{16,64}$/) }),
]);
export type FileRef = z.infer<typeof fileRefSchema>;

export const listPreviewSchema = z.object({
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  delimiter: z.string(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** True when the file has more data rows than `rows` shows. */
  hasMoreRows: z.boolean(),
});
export type ListPreview = z.infer<typeof listPreviewSchema>;

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  transport: z.enum(['ipc', 'web']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const calls = {
  'app:getInfo': {
    request: z.strictObject({}),
    result: appInfoSchema,
  },
  'lists:preview': {
    request: z.strictObject({ file: fileRefSchema, maxRows: z.number().int().min(1).max(200).default(20) }),
    result: listPreviewSchema,
  },
} as const;

export const events = {
  'lists:didPreview': z.object({ fileName: z.string(), rowsShown: z.number().int() }),
} as const;

export type Calls = typeof calls;
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

export const errorCodes = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'unreadable_file', 'internal'] as const;
export type ErrorCode = (typeof errorCodes)[number];
