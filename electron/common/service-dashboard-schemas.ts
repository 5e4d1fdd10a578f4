// What the app's screen for Sift's own service shows and sends: its keys (a secret only once, when made),
// webhook endpoints and their deliveries, and the account's credits and low-balance threshold.
import { z } from 'zod';

const isoTime = z.string();

const serviceKeySchema = z.object({
  id: z.string(),
  mode: z.enum(['live', 'sandbox']),
  label: z.string(),
  /** `svc_live_…abcd`: the key itself exists only in the answer that made it. */
  masked: z.string(),
  state: z.enum(['active', 'revoked']),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
  /** One of this run's keys the app itself uses: not revoked from the screen. */
  usedByApp: z.boolean(),
});

const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  createdAt: isoTime,
  /** The inside range its host is in ("this computer (loopback)", "a private network"), if it is. */
  inside: z.string().optional(),
});

const deliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  endpointId: z.string(),
  status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: isoTime.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
});

export const serviceOverviewSchema = z.object({
  /** Where the service listens on this computer (127.0.0.1). */
  baseUrl: z.string(),
  keys: z.array(serviceKeySchema),
  endpoints: z.array(webhookEndpointSchema),
  /** Whether webhooks may go to this computer and private networks (`--allow-private-webhooks`). */
  privateWebhooks: z.boolean(),
  deliveries: z.array(deliverySchema),
  account: z.object({
    balance: z.number().int(),
    freeRemaining: z.number().int(),
    lowThreshold: z.number().int().nullable(),
  }),
});
export type ServiceOverview = z.infer<typeof serviceOverviewSchema>;
