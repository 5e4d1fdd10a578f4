// Calls to a tool's API: its base address checked (https, or http to this computer only), every call
// bounded in time and every answer in size as it arrives, no redirect followed (the secret would go with it),
// 429s and passing failures waited out and tried again by the client's own retry policy (retry-policy.ts:
// Retry-After, capped backoff, at most a few tries) or as the tool's own limits say (ToolLimits), never
// longer than an hour, and every message free of the secret.
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { formatDuration } from '../../common/durations.ts';
import { isLoopback } from '../client/base-url.ts';
import { keyMaskingFor } from '../client/client-errors.ts';
import { createRetryPolicy, parseRetryAfter, type Outcome } from '../client/retry-policy.ts';
import { AppError } from '../../common/app-error.ts';
import { readLimitedResponse, SizeLimitError } from '../streams/size-limit.ts';
import { ConnectorError } from './connector.ts';
import type { ToolPath } from './tool-path.ts';

/** A tool's API as one connection reaches it. */
export type ToolHttp = {
  readonly host: string;
  /** `path` (made by toolPath) is joined onto the base address; a body is sent form-encoded or as JSON. */
  call(
    method: string,
    path: ToolPath,
    body?: { form: Record<string, string> } | { json: unknown },
  ): Promise<{ status: number; body: unknown }>;
  /** An answer read as `schema` says, or refused in words naming `what` it was. */
  parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T;
};

const callTimeoutMs = 30_000;
/**
 * The most of one answer Sift reads: its largest pages (1,000 Mailchimp members, 100 HubSpot contacts, 500
 * Mailman members) are well under 4 MB even with every field a tool may add.
 */
export const answerLimitBytes = 16 * 1024 * 1024;
/** The longest a tool may have Sift wait before a call: longer, the sync stops and goes on when run again. */
const longestToolWaitMs = 3_600_000;

/** A tool's own rate limits, read from its answers (HubSpot's headers, hubspot-limits.ts). */
export type ToolLimits = {
  /** After an answer: how long to hold the next call (0: not at all), so a limit is rarely met. */
  paceMs(headers: Headers): number;
  /** A 429 as the tool explains it: wait this long, or stop with these words; undefined: the generic rule. */
  onLimit(headers: Headers, body: unknown): { waitMs: number } | { stop: string } | undefined;
};

/** The base address as given, refused with a reason when Sift must not send a secret there. */
export function toolBaseUrl(tool: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppError('bad_request', `${tool}'s address must be an http or https URL (not "${text}").`);
  }
  if (url.username || url.password || url.search || url.hash)
    throw new AppError('bad_request', `${tool}'s address must hold no user, password, query or fragment.`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new AppError(
      'bad_request',
      `${tool}'s address ${url.host} must use https: over http its secret would travel in clear (http is for this computer only).`,
    );
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AppError('bad_request', `${tool}'s address must be an http or https URL.`);
  return url;
}

/**
 * A tool's refusal in its own words: Mailchimp's problem document (`title`, `detail`, and each field's
 * `errors`), Mailman's `title` and `description`, HubSpot's `message` with its `category`; anything else as
 * it came.
 */
function toolWords(body: unknown): string {
  if (typeof body === 'string') return body;
  const fields = (body ?? {}) as {
    title?: unknown;
    detail?: unknown;
    errors?: unknown;
    message?: unknown;
    category?: unknown;
    description?: unknown;
  };
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const errors = Array.isArray(fields.errors)
    ? (fields.errors as { field?: unknown; message?: unknown }[])
        .map((each) => [text(each.field), text(each.message)].filter(Boolean).join(': '))
        .filter(Boolean)
    : [];
  const titled = [text(fields.title), text(fields.detail) ?? text(fields.description)].filter(Boolean).join(': ');
  if (titled) return errors.length > 0 ? `${titled} (${errors.join('; ')})` : titled;
  const message = text(fields.message) ?? text(fields.description);
  if (message) return text(fields.category) ? `${message} (${text(fields.category)})` : message;
  return JSON.stringify(body ?? '');
}

export function toolHttp(
  tool: string,
  base: URL,
  authorization: string,
  secret: string,
  options: { random?: () => number; maxTransientRetries?: number; limits?: ToolLimits } = {},
): ToolHttp {
  const keys = keyMaskingFor(secret);
  const decide = createRetryPolicy({
    maxTransientRetries: options.maxTransientRetries ?? 3,
    random: options.random ?? Math.random,
    clock: { now: () => Date.now() },
    where: base.host,
    keys,
  });
  const root = base.href.replace(/\/+$/, '');
  const said = (body: unknown) => keys.redact(toolWords(body).slice(0, 300));
  /** When the next call may go, as the tool's pace asks (ToolLimits.paceMs). */
  let heldUntil = 0;
  const stopped = (callName: string, waitMs: number, why: string, body: unknown) =>
    new ConnectorError(
      'unreachable',
      `${tool} at ${base.host} asks Sift to wait ${formatDuration(waitMs / 1000)} before ${callName} (${why}); Sift waits at most ${formatDuration(longestToolWaitMs / 1000)}, so it stops here and goes on from where it stopped when run again. ${tool} said: ${said(body)}`,
    );
  return {
    host: base.host,
    parse(schema, body, what) {
      const parsed = schema.safeParse(body);
      if (!parsed.success)
        throw new ConnectorError('refused', `${tool} at ${base.host} answered ${what} in a form Sift does not know.`);
      return parsed.data;
    },
    async call(method, path, body) {
      const callName = `${method} ${path.text.split('?')[0]}`;
      const tries: Outcome[] = [];
      for (;;) {
        let outcome: Outcome;
        let toolWaitMs: number | undefined;
        if (heldUntil > Date.now()) await sleep(heldUntil - Date.now());
        try {
          const response = await fetch(`${root}${path.text}`, {
            redirect: 'manual',
            method,
            headers: {
              Authorization: authorization,
              Accept: 'application/json',
              ...(body === undefined
                ? {}
                : { 'Content-Type': 'form' in body ? 'application/x-www-form-urlencoded' : 'application/json' }),
            },
            ...(body === undefined
              ? {}
              : { body: 'form' in body ? new URLSearchParams(body.form).toString() : JSON.stringify(body.json) }),
            signal: AbortSignal.timeout(callTimeoutMs),
          });
          if (response.status >= 300 && response.status < 400) {
            await response.body?.cancel();
            throw new ConnectorError(
              'unreachable',
              `${tool} at ${base.host} answered ${callName} with ${response.status}, sending Sift to ${keys.redact(response.headers.get('location') ?? 'another address').slice(0, 200)}: Sift follows no tool elsewhere (its secret would go with it). Check the connection's address.`,
              response.status,
            );
          }
          const text = (await readAnswer(response, tool, base.host, callName)).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: kept as text, for the words of a refusal.
          }
          if (options.limits) heldUntil = Math.max(heldUntil, Date.now() + options.limits.paceMs(response.headers));
          if (response.status < 400) return { status: response.status, body: parsed };
          if (response.status === 401 || response.status === 403)
            throw new ConnectorError(
              'authentication',
              `${tool} at ${base.host} refused the credentials (${response.status}): check the user and the secret, and what they may do.`,
            );
          if (response.status === 404)
            throw new ConnectorError('not_found', `${tool}: ${callName} answered 404: ${said(parsed)}`, 404);
          outcome = {
            call: callName,
            kind: 'answer',
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
          };
          if (response.status === 429) {
            const limit = options.limits?.onLimit(response.headers, parsed);
            if (limit && 'stop' in limit) throw new ConnectorError('unreachable', limit.stop);
            toolWaitMs = limit?.waitMs;
            const retryAfterMs = parseRetryAfter(outcome.retryAfter, Date.now()) * 1000;
            if ((toolWaitMs ?? retryAfterMs) > longestToolWaitMs)
              throw stopped(callName, toolWaitMs ?? retryAfterMs, `Retry-After: ${outcome.retryAfter}`, parsed);
          }
          if (response.status < 500 && response.status !== 429)
            throw new ConnectorError(
              'refused',
              `${tool} refused ${callName} (${response.status}): ${said(parsed)}`,
              response.status,
            );
        } catch (error) {
          if (error instanceof ConnectorError) throw error;
          const timedOut = error instanceof Error && error.name === 'TimeoutError';
          outcome = timedOut
            ? { call: callName, kind: 'timeout', afterMs: callTimeoutMs }
            : { call: callName, kind: 'unreachable', error };
        }
        const decision = decide(outcome, tries);
        if (decision.action === 'fail') {
          const what =
            outcome.kind === 'answer'
              ? `answered ${outcome.status}`
              : outcome.kind === 'timeout'
                ? 'did not answer in time'
                : 'could not be reached';
          throw new ConnectorError(
            'unreachable',
            `${tool} at ${base.host} ${what} (${callName}, tried ${tries.length + 1} ${tries.length === 0 ? 'time' : 'times'}).`,
          );
        }
        tries.push(outcome);
        await sleep(toolWaitMs ?? decision.waitMs);
      }
    },
  };
}

/** An answer's body, refused in words as soon as it passes answerLimitBytes (or says it will). */
async function readAnswer(response: Response, tool: string, host: string, callName: string): Promise<Buffer> {
  const refused = () =>
    new ConnectorError(
      'unreachable',
      `${tool} at ${host} answered ${callName} with more than ${answerLimitBytes / 1024 / 1024} MB: no page Sift asks for is near that size, so Sift read no further.`,
    );
  try {
    return await readLimitedResponse(response, answerLimitBytes);
  } catch (error) {
    if (error instanceof SizeLimitError) throw refused();
    throw error;
  }
}
