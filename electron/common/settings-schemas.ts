// What the Settings screen and the account badge get from main, as zod schemas the contract uses.
import { z } from 'zod';

export const keyModeSchema = z.enum(['live', 'sandbox']);

/** A host name as given in EHLO: letters, digits, dots and hyphens. */
const hostName = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
export const heloNameSchema = z.string().regex(hostName, 'a host name such as mail.example.com').max(253);
/** An IPv4 or IPv6 address, optionally with a port (`[::1]:53`): node's resolver takes addresses, not names. */
const resolverAddress = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|[0-9A-Fa-f:]+|\[[0-9A-Fa-f:]+\](?::\d{1,5})?)$/;

/**
 * A SOCKS5 proxy as a person types it, `socks5://[user[:password]@]host:port`. Shown back with its password
 * as `•••`, which, sent again, keeps the password saved for that proxy and user (see proxy-secrets.ts).
 */
export const proxyTextSchema = z
  .string()
  .trim()
  .max(600)
  .regex(/^socks5h?:\/\/\S+$/i, 'socks5://[user:password@]host:port');

/** The password of a saved proxy as the renderer sees it: never the password itself. */
export const keptProxyPassword = '•••';

/**
 * How Sift's own service checks live addresses (its local SMTP engine), as the person sets it; what is
 * left out keeps the engine's default. The same settings as `sift service`'s flags.
 */
export const engineSettingsSchema = z.strictObject({
  helo: heloNameSchema.optional(),
  mailFrom: z.email('an email address').max(254).optional(),
  resolvers: z.array(z.string().regex(resolverAddress, 'an IP address with an optional :port')).max(4).optional(),
  perHostRate: z.number().positive().max(100).optional(),
  perHostConcurrency: z.number().int().min(1).max(20).optional(),
  concurrency: z.number().int().min(1).max(200).optional(),
  timeoutSeconds: z.number().positive().max(120).optional(),
  greylistRetryMinutes: z
    .array(
      z
        .number()
        .positive()
        .max(24 * 60),
    )
    .min(1)
    .max(10)
    .optional(),
  /** Every SMTP conversation goes out through one of these (a pool); none: straight from this computer. */
  proxies: z.array(proxyTextSchema).max(8).optional(),
});
export type EngineSettings = z.infer<typeof engineSettingsSchema>;

/** Settings as the renderer sees them: never a key, only its masked form, mode and label. */
/** Light or dark: the system's choice, or one kept whatever the system says. */
export const appearanceSchema = z.enum(['system', 'light', 'dark']);
export type Appearance = z.infer<typeof appearanceSchema>;

export const settingsViewSchema = z.object({
  service: z.enum(['own', 'hosted']),
  ownMode: keyModeSchema,
  hosted: z
    .object({
      baseUrl: z.string(),
      label: z.string(),
      maskedKey: z.string(),
      mode: keyModeSchema,
      /** False when the key was kept for one run only and that run is over. */
      keyAvailable: z.boolean(),
    })
    .nullable()
    .optional(),
  /** How main keeps a hosted key: the OS keyring, memory for this run only, or a 0600 file (web host). */
  keyProtection: z.enum(['encrypted', 'this-run-only', 'file-0600']),
  sharing: z.object({ enabled: z.boolean(), port: z.number().int() }),
  /** The own service's live-check settings as saved, and what it uses where they are left empty. */
  engine: engineSettingsSchema,
  engineDefaults: z.object({ helo: z.string(), mailFrom: z.string() }),
  appearance: appearanceSchema,
  /** The person has chosen how addresses are checked (the first-run question is answered). */
  checkingChosen: z.boolean(),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

export const connectionTestSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    mode: z.string(),
    label: z.string().optional(),
    balance: z.number().int().optional(),
    freeRemaining: z.number().int().optional(),
    /** How lists go to the service and come back, in words ("as batches of up to 50,000 addresses"; "page by page"). */
    supports: z.object({ uploads: z.string(), results: z.string() }),
  }),
  z.object({
    ok: z.literal(false),
    problem: z.enum(['invalid', 'insecure', 'key_refused', 'unreachable', 'not_compatible', 'other']),
    message: z.string(),
  }),
]);
export type ConnectionTestResult = z.infer<typeof connectionTestSchema>;

/** The address live checks leave from, on the DNS blocklists mail servers query most. */
const blocklistCheckSchema = z.object({
  state: z.enum(['listed', 'clean', 'not_checked']),
  address: z.string().optional(),
  listed: z.array(z.object({ name: z.string(), removalUrl: z.string(), text: z.string().optional() })),
  unanswered: z.array(z.object({ name: z.string(), why: z.string() })),
  message: z.string(),
});

/** Whether live checks can reach mail servers from this computer, directly and through each proxy, now. */
export const liveCheckTestSchema = z.object({
  direct: z.object({ state: z.enum(['open', 'blocked', 'not_checked']), message: z.string() }),
  proxies: z.array(
    z.object({
      proxy: z.string(),
      state: z.enum(['ok', 'failed', 'no_port_25', 'not_checked']),
      message: z.string(),
    }),
  ),
  /** Some way out reached a mail server: live checks from this computer will get real answers. */
  usable: z.boolean(),
  blocklists: blocklistCheckSchema,
});
export type LiveCheckTest = z.infer<typeof liveCheckTestSchema>;

/** What DNS says of a HELO name: it resolves to an address, and that address back to the name. */
export const heloCheckSchema = z.object({
  state: z.enum(['matches', 'no_address', 'no_reverse', 'reverse_differs', 'not_checked']),
  addresses: z.array(z.string()),
  reverseNames: z.array(z.string()),
  message: z.string(),
  /** The name's address on the blocklists, when it resolved. */
  blocklists: blocklistCheckSchema.optional(),
});
export type HeloCheck = z.infer<typeof heloCheckSchema>;

/** The current service's account, for the badge on every screen; `problem` when it cannot be read. */
export const accountViewSchema = z.object({
  service: z.enum(['own', 'hosted']),
  mode: z.string(),
  label: z.string().optional(),
  balance: z.number().int().optional(),
  freeRemaining: z.number().int().optional(),
  /** The balance is under the low-balance threshold (`credits.low`), where Sift knows the threshold. */
  low: z.boolean().optional(),
  /** Whether the service can reach mail servers on port 25, where it says (Sift's own service does). */
  port25: z.enum(['open', 'blocked', 'unchecked']).optional(),
  /** Mail servers of several unrelated domains refuse the service's sending address (Sift's own service says). */
  senderRefused: z
    .object({
      refusedBy: z.number().int().optional(),
      wayOut: z.string().optional(),
      reply: z.string().optional(),
      blocklist: z.string().optional(),
      removalUrl: z.string().optional(),
    })
    .optional(),
  /** The service keeps a team's outcomes, which History's What happened panel shares (Sift's own service does). */
  teamOutcomes: z.boolean().optional(),
  problem: z.string().nullable(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

/** One address checked now, as kept in the recent list. */
export const singleCheckSchema = z.object({
  email: z.string(),
  result: z.string(),
  billed: z.boolean(),
  role: z.boolean().optional(),
  disposable: z.boolean().optional(),
  reason: z.string().optional(),
  suggestion: z.string().optional(),
  /** True when Sift answered without asking the service (bad syntax). */
  local: z.boolean(),
  /** A sandbox key's scripted demo verdict: no mail server was asked. */
  demo: z.boolean().optional(),
  checkedAt: z.string(),
});
export type SingleCheck = z.infer<typeof singleCheckSchema>;
