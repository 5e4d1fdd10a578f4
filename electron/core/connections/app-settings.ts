// The app's own settings (which service, the hosted connection, sharing Sift's service, recent single
// checks), read and written whole through a settings file: electron-store under Electron, `conf` (the
// library electron-store is built on) in the loopback web host. A file that does not parse gives the
// defaults rather than a broken app.
import { z } from 'zod';
import { appearanceSchema, engineSettingsSchema, singleCheckSchema } from '../../common/settings-schemas.ts';

export type { SingleCheck } from '../../common/settings-schemas.ts';

export const maxRecentChecks = 20;

const appSettingsSchema = z.object({
  /** Where new jobs and checks go: Sift's own service, or the hosted one below. */
  service: z.enum(['own', 'hosted']).default('own'),
  /** Sift's own service with a sandbox key (scripted verdicts), or live (real mail-server checks). */
  ownMode: z.enum(['sandbox', 'live']).default('sandbox'),
  hosted: z
    .object({
      id: z.string(),
      baseUrl: z.string(),
      label: z.string(),
      maskedKey: z.string(),
      mode: z.enum(['live', 'sandbox']),
    })
    .nullable()
    .default(null),
  /** Let other tools on this computer use Sift's own service on a fixed loopback port. */
  sharing: z
    .object({ enabled: z.boolean(), port: z.number().int().min(1024).max(65535) })
    .default({ enabled: false, port: 7455 }),
  /** How Sift's own service checks live addresses; proxies without their passwords (those are in the vault). */
  engine: engineSettingsSchema.default({}),
  /** The person answered the first-run question (how addresses are checked); until then the app asks. */
  checkingChosen: z.boolean().default(false),
  /** Light, dark, or as the system is (the window, its menus and dialogs follow). */
  appearance: appearanceSchema.default('system'),
  recentChecks: z.array(singleCheckSchema).max(maxRecentChecks).default([]),
  /** safeStorage ciphertexts of hosted keys, by connection id (see key-vault.ts). */
  encryptedKeys: z.record(z.string(), z.string()).default({}),
});
type AppSettings = z.infer<typeof appSettingsSchema>;

/** What electron-store and conf both are, as far as Sift needs: one JSON document. */
export type SettingsFile = { store: Record<string, unknown> };

export type SettingsStorage = { read(): AppSettings; write(settings: AppSettings): void };

export function settingsStorage(file: SettingsFile): SettingsStorage {
  return {
    read() {
      const parsed = appSettingsSchema.safeParse(file.store);
      return parsed.success ? parsed.data : appSettingsSchema.parse({});
    },
    write(settings) {
      file.store = appSettingsSchema.parse(settings);
    },
  };
}
