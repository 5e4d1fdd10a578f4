// Every choice Sift makes where the service specification says "not shown", in one place,
// each beside the spec's own words. The list is ../shared/spec/wire-assumptions.md; Sift's client
// and Sift's embedded service both read these, so they agree. A hosted service that chose
// differently means changing this module, and nothing else.
import { z } from 'zod';
import { batchSummarySchema } from './spec.ts';

/**
 * ASSUMPTION: {base_url} is the service's origin, optionally with a path prefix (`https://api.example.com`,
 * `http://127.0.0.1:8080`), and calls go to `{base_url}/v1/...`; a base URL given with `/v1` at its end names
 * the same service, so the prefix is not doubled.
 * Spec: "Addresses are written {base_url}; the API lives under the path prefix /v1 on that host."
 * "All paths are under {base_url}/v1."
 */
export const baseUrlMayEndWithApiPrefix = true;

/**
 * ASSUMPTION: POST /batches payload is JSON `{ name, emails }`; the answer is 201 with the batch object.
 * Spec: "Request payload: not shown." "Response: not shown beyond that a batch with an id of form bat_<id> results."
 * Readers need only the id from a creation answer (`createdBatchSchema`): anything more that is not a whole
 * batch object is read from the status call, which the spec promises "at least `status`, `submitted` and
 * `unique`". Sift's own service answers with the whole batch object.
 */
export const createBatchRequestSchema = z.object({
  name: z.string().max(200).optional(),
  emails: z.array(z.string()),
});
export type CreateBatchRequest = z.infer<typeof createBatchRequestSchema>;
export const createdStatus = 201;

/**
 * ASSUMPTION: the batch object has `id`, `name`, `status`, `submitted`, `unique`, `created_at`,
 * `completed_at` (or null) and `summary` (counting what is done so far).
 * Spec: "Other batch fields are not shown." Readers treat every field but id/status/submitted/unique as optional.
 */
/**
 * SIFT'S OWN: a live batch on Sift's own service says how long it has left at a polite pace (each mail
 * server asked at most its rate), and where most of that time goes: `{ seconds_left, pace: "polite",
 * largest: { name, pending } }`; `pace: "learning"` while that server's pace is still being learned from
 * its rate replies (seconds_left is then the pace so far, shown as no number), and `pace: "confirming"`
while the pace found is not yet seen through a whole window (seconds_left holds if it is right, and is shown
as such). A reader that knows neither takes the seconds as polite. Spec: "Other batch fields
 * are not shown." Readers take it only when it is there and has this shape; anything else under that name
 * is ignored, never a failure.
 */
const batchEstimateSchema = z.looseObject({
  seconds_left: z.number().nonnegative(),
  pace: z.string().optional(),
  largest: z.looseObject({ name: z.string(), pending: z.number().int().nonnegative() }).optional(),
});
export type BatchEstimate = z.infer<typeof batchEstimateSchema>;

export const batchObjectSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  status: z.string(),
  submitted: z.number().int(),
  unique: z.number().int(),
  created_at: z.string().optional(),
  completed_at: z.string().nullable().optional(),
  summary: batchSummarySchema.optional(),
  estimate: batchEstimateSchema.optional().catch(undefined),
});
export type BatchObject = z.infer<typeof batchObjectSchema>;

/** What a creation answer (POST /batches, POST /files) must hold at the least: the new batch's id. */
export const createdBatchSchema = z.looseObject({ id: z.string().min(1) });

/**
 * ASSUMPTION: `running` from submission until an end state; end states `complete`, `failed`, `canceled`.
 * Spec: "The initial state, how queued batches are named, and any other transition are not shown."
 * Clients treat any other status as still working.
 */
export const batchStatuses = {
  running: 'running',
  complete: 'complete',
  failed: 'failed',
  canceled: 'canceled',
} as const;
export const endStatuses: readonly string[] = [batchStatuses.complete, batchStatuses.failed, batchStatuses.canceled];

/**
 * ASSUMPTION: cancel is `POST /batches/{id}/cancel`, answering the batch object; on a batch that
 * already ended, 409 `invalid_request_error` / `batch_not_running`.
 * Spec: "The cancel operation itself is not shown."
 */
export const cancelPath = (id: string) => `/batches/${encodeURIComponent(id)}/cancel`;

/**
 * ASSUMPTION: POST /verify answers a result row (`email`, `result`, `billed`) plus any flags
 * (`role`, `disposable`, `reason`). Spec: "the body of the single-verification response [is] not shown."
 * The embedded service also puts these flags on batch result rows; readers must not require them.
 */
export const verifyRequestSchema = z.object({ email: z.string() });
export const verdictFlagsSchema = z.looseObject({
  role: z.boolean().optional(),
  disposable: z.boolean().optional(),
  reason: z.string().optional(),
  provider: z.string().optional(),
  free: z.boolean().optional(),
  smtp_reply: z.string().optional(),
  smtp_tls: z.string().optional(),
});

/**
 * SIFT'S OWN: the local engine's extras on result rows and /verify answers, each optional: `provider`
 * (who runs the domain's mail hosts: Google, Microsoft, Yahoo, Apple or Other), `free` (the domain is a
 * free mailbox provider), `smtp_reply` (the mail server's reply code and text, e.g. `550 5.1.1 No such user`)
 * and `smtp_tls` (how the conversation was protected: `none`, `ok`, or `certificate_not_trusted` when the
 * server offered STARTTLS with a certificate that does not verify, which a verifier tolerates and notes).
 * Wire assumptions: "Extra fields on result rows: `role`, `disposable` (booleans) and `reason` (string)
 * where the service has them; a local engine may add more (for example the mailbox provider and the SMTP
 * reply), each optional." Readers must not need them.
 */
export type LocalEngineRowExtra = 'provider' | 'free' | 'smtp_reply' | 'smtp_tls';

/**
 * SIFT'S OWN: reasons the local engine gives, beside the sandbox's. `port_25_blocked` means the service's
 * network does not let it reach mail servers (nothing is billed); the others name what the server or DNS did.
 * What a mail server's reply says is read by its words and codes (reply-patterns.ts): `mailbox_not_found`,
 * `mailbox_disabled` (invalid), `mailbox_full`, `sender_blocklisted`, `sender_reputation`,
 * `sender_reverse_dns`, `sender_helo`, `sender_address`, `relay_denied`, `rate_limited`, `greylisted`,
 * `policy`, `server_error` (unknown, never billed). Spec: "The full list of allowed `result` values [...] [is]
 * not shown"; reasons are not in the spec at all (wire assumptions: "`reason` (string) where the service has
 * them"). Readers show a reason they do not know as it came. Rows written by earlier versions may say
 * `blocked_by_policy`, `smtp_error` or `host_busy`; readers keep words for those.
 */
export const localEngineReasons = {
  port25Blocked: 'port_25_blocked',
  nullMx: 'null_mx',
  greylisted: 'greylisted',
  rateLimited: 'rate_limited',
  policy: 'policy',
  /** A SOCKS5 proxy refused us (its password, or port 25): the address was not asked, nothing is billed. */
  proxyRefused: 'proxy_refused',
} as const;

/**
 * ASSUMPTION: POST /files takes the raw CSV bytes (`Content-Type: text/csv`) with the batch name in
 * `?name=`; the service reads the column headed `email` (any case), else the first column; 201 with the batch object.
 * Spec: "Uploads a file (streamed). Payload and response are not shown."
 */
export const filesContentType = 'text/csv';
export const filesNameParam = 'name';

/**
 * ASSUMPTION: GET /account answers `{ mode, balance, free_remaining, key: { label, prefix } }`.
 * Spec: "The method and the response are not shown."
 */
export const accountSchema = z.looseObject({
  /** Readers fall back on the key's own prefix when a service leaves it out. */
  mode: z.string().optional(),
  balance: z.number().int().optional(),
  free_remaining: z.number().int().optional(),
  key: z.looseObject({ label: z.string().optional(), prefix: z.string().optional() }).optional(),
  /**
   * SIFT'S OWN: Sift's service says whether it can reach mail servers on port 25 (`open`, `blocked`,
   * `unchecked`), so a client can explain live `unknown` verdicts. Spec: "The method and the response are not shown."
   */
  port_25: z.string().optional(),
  /**
   * SIFT'S OWN: whether mail servers refuse the service's own sending address (`refused` once servers of
   * `refused_by` unrelated domains refused it by policy, `not_refused` otherwise), the way out it was
   * (`direct` or a proxy's label), the newest such reply, and the blocklist it names with its removal page.
   * Spec: "The method and the response are not shown."
   */
  sender: z
    .looseObject({
      state: z.string(),
      refused_by: z.number().int().optional(),
      way_out: z.string().optional(),
      reply: z.string().optional(),
      blocklist: z.string().optional(),
      removal_url: z.string().optional(),
    })
    .optional(),
  /**
   * SIFT'S OWN: the shortcuts a service offers beside the spec's main path (`files`: POST /files takes a
   * list as raw CSV; `results_csv`: a finished batch downloads as one CSV). A service that says nothing
   * offers none: Sift then uses POST /batches and the cursor loop only. Spec: "The method and the response
   * are not shown."
   */
  features: z.array(z.string()).optional(),
});
export type Account = z.infer<typeof accountSchema>;

/** SIFT'S OWN: the names `features` uses for the two shortcuts (see accountSchema). */
export const shortcutFeatures = { files: 'files', resultsCsv: 'results_csv' } as const;

/**
 * ASSUMPTION (a starting point, not a fact): a POST /batches of 50,000 addresses (about 1.5 MB of JSON) is
 * accepted; a service that refuses a part as too large (413, or a 400 that names the size) gets it again in
 * halves, and the size that went through is remembered for that service.
 * Spec: "Length of the batch retention window, maximum batch size, and upload size limits are not shown."
 */
export const firstBatchPartSize = 50_000;

/**
 * ASSUMPTION: the CSV download is `GET /batches/{id}/results.csv`, header `email,result,billed`;
 * 409 while the batch is running. Spec: "Its path and shape are not shown."
 * SIFT'S OWN: Sift's service adds `reason` and `provider` columns (as it adds them to result rows;
 * `provider` is empty where the service has no mail-host finding, as in the sandbox); a reader finds
 * columns by header name and needs only email, result and billed. Cells that would start a formula in a
 * spreadsheet get a leading `'`, an address included, and a reader takes that `'` away again.
 */
export const resultsCsvPath = (id: string) => `/batches/${encodeURIComponent(id)}/results.csv`;
export const resultsCsvHeader = ['email', 'result', 'billed', 'reason', 'provider'] as const;

/**
 * ASSUMPTION: error types and codes beyond the two the spec names.
 * Spec: "The full catalogue of types and codes is not shown." 400 and 402: "its condition is not shown".
 */
export const assumedErrors = {
  /** 400: a malformed request (bad JSON, missing email, limit outside 1..1000, unknown cursor). */
  invalidRequest: 'invalid_request_error',
  /** 402: not enough credits for the checks asked. */
  paymentRequired: 'payment_required',
  insufficientCredits: 'insufficient_credits',
  /** 401 with no key. Spec: "the code is not shown". */
  missingApiKey: 'missing_api_key',
  /** 429. */
  rateLimit: 'rate_limit_error',
  rateLimited: 'rate_limited',
  /** 409 on cancel of an ended batch, and on a download of a running one. */
  batchNotRunning: 'batch_not_running',
  batchNotComplete: 'batch_not_complete',
  idempotencyKeyReused: 'idempotency_key_reused',
  /** Not in the assumptions list either: a batch id that names nothing (404), a cursor past retention (400). */
  batchNotFound: 'batch_not_found',
  cursorExpired: 'cursor_expired',
  invalidCursor: 'invalid_cursor',
  apiError: 'api_error',
} as const;

/** ASSUMPTION: X-RateLimit-Reset is a Unix timestamp in seconds. Spec: "the example value is a Unix timestamp in seconds". */
export const rateLimitResetIsUnixSeconds = true;

/**
 * ASSUMPTION: the same Idempotency-Key and body within 24 hours replays the first answer and does nothing twice;
 * the same key with another body is 409 `idempotency_key_reused`. Spec: "its semantics are not shown".
 * Sift's service scopes keys to the account (per live/sandbox mode), not to one API key, so a retry sent with
 * a rotated key is still recognised; Sift's client never depends on that.
 */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** ASSUMPTION: Service-Version values are dates `YYYY-MM-DD`; the service answers with the one it used. Spec: "The format of the dated version values ... [is] not shown." */
export const serviceVersionPattern = /^\d{4}-\d{2}-\d{2}$/;
export const currentServiceVersion = '2026-11-01';

// ASSUMPTION: summary counters count unique addresses; `duplicates` = submitted − unique; `billed` counts billed checks.
// Spec: the batch summary lists the fields only. (The service's summaryOf() in service/batches.ts counts this way.)

/**
 * ASSUMPTION: event data. Spec: batch.failed "an error object; its fields are not shown";
 * batch.canceled "a partial summary; which fields are present is not shown"; credits.low "the remaining balance; the field name is not shown".
 */
export const eventDataSchemas = {
  'batch.completed': z.looseObject({
    batch_id: z.string(),
    name: z.string(),
    summary: batchSummarySchema,
    results_url: z.string(),
  }),
  'batch.failed': z.looseObject({
    batch_id: z.string(),
    name: z.string(),
    error: z.looseObject({ type: z.string(), code: z.string(), message: z.string() }),
  }),
  'batch.canceled': z.looseObject({ batch_id: z.string(), name: z.string(), summary: batchSummarySchema.partial() }),
  'credits.low': z.looseObject({ balance: z.number().int() }),
} as const;

/**
 * ASSUMPTION: while a batch runs, `has_more` stays true even when the reader has caught up (an empty page
 * may come back). Spec: "What has_more returns when the reader has caught up with a batch that is still
 * running is not specified... Treat the download as finished only when the status is complete and has_more is false."
 * The client does not rely on this: it stops only on `complete` with has_more false, whatever has_more did before.
 */
export const hasMoreWhileRunning = true;
