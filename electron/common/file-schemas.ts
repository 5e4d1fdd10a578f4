// Files as the contract names them (a dropped file, a list's first rows) and what the app says of itself.
import { z } from 'zod';

/** A file the user dropped or chose, as main can find it. */
export const fileRefSchema = z.discriminatedUnion('kind', [
  // Electron: the preload asks Electron for the dropped file's path.
  z.strictObject({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  // Web host: the browser streams the file to main first and gets this id back.
  z.strictObject({ kind: z.literal('upload'), uploadId: z.string().regex(/^upl_[A-Za-z0-9_-]{16,64}$/) }),
]);
export type FileRef = z.infer<typeof fileRefSchema>;

/** A column's or a workbook sheet's name, as the file spells it. */
export const headerNameSchema = z.string().min(1).max(200);

export const listPreviewRequestSchema = z.strictObject({
  file: fileRefSchema,
  maxRows: z.number().int().min(1).max(200).default(20),
  /** A workbook's sheet to show (its first when absent). */
  sheet: headerNameSchema.optional(),
});

export const listPreviewSchema = z.object({
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  delimiter: z.string(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** True when the file has more data rows than `rows` shows. */
  hasMoreRows: z.boolean(),
  /** A workbook's sheet shown, and every sheet it has (absent for a CSV or text list). */
  sheet: z.string().optional(),
  sheets: z.array(z.string()).optional(),
});
export type ListPreview = z.infer<typeof listPreviewSchema>;

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  transport: z.enum(['ipc', 'web']),
  /** The app may be quit from the page: the single executable's browser app, which runs until it is. */
  canQuit: z.boolean().optional(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** What the app says about a newer Sift (the single file's; the desktop app has its Help menu's). */
export const updateStatusSchema = z.object({
  state: z.enum(['ready', 'current', 'later', 'failed', 'off', 'unsupported']),
  message: z.string(),
  version: z.string().optional(),
  /** What changed, as the release's signed CHANGES.txt says. */
  changes: z.string().optional(),
});
export type UpdateStatus = z.infer<typeof updateStatusSchema>;
