// HubSpot's rate limits, read as HubSpot documents them:
// - Every answer carries X-HubSpot-RateLimit-Max (calls allowed in the rolling window),
//   X-HubSpot-RateLimit-Remaining (calls left in it) and X-HubSpot-RateLimit-Interval-Milliseconds (the
//   window: 10000 is ten seconds) (HubSpot's developer changelog, 2018-11-06, "Rate limit information headers
//   will be included in HTTP responses"; developers.hubspot.com/docs/api/usage-details).
// - A 429 names the limit met in its body's `policyName`: TEN_SECONDLY_ROLLING, the window, which passes;
//   DAILY, the day's calls, which do not come back until HubSpot's day turns (usage-details, "Rate limits").
// Sift paces by what is left, so a sync rarely meets a 429: with one call left in the window, each next call
// waits until the oldest of the window's calls has left it, which keeps to the allowance's own pace.
import type { ToolLimits } from './tool-http.ts';

const windowHeader = 'x-hubspot-ratelimit-interval-milliseconds';
/** HubSpot's window when its answer does not say (its 100 or 190 calls per ten seconds). */
const defaultWindowMs = 10_000;

const numberIn = (headers: Headers, name: string) => {
  const value = Number(headers.get(name) ?? Number.NaN);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** The window an answer names, at most a minute (HubSpot's is ten seconds). */
const windowOf = (headers: Headers) => Math.min(numberIn(headers, windowHeader) ?? defaultWindowMs, 60_000);

/** HubSpot's limits for one connection: the times of its recent calls are what the pace is read from. */
export function hubspotLimits(now: () => number = Date.now): ToolLimits {
  const calls: number[] = [];
  return {
    paceMs(headers) {
      const windowMs = windowOf(headers);
      const allowed = numberIn(headers, 'x-hubspot-ratelimit-max');
      const left = numberIn(headers, 'x-hubspot-ratelimit-remaining');
      const at = now();
      calls.push(at);
      while (calls.length > 0 && calls[0]! <= at - windowMs) calls.shift();
      if (left === undefined || left > 1) return 0;
      // The window holds `used` calls by HubSpot's count: the next may go when the oldest of them has left
      // it. Sift knows its own calls' times (a little after HubSpot counted them, so the wait is on the safe
      // side); when HubSpot counts more calls than Sift made (other apps share the allowance), a whole
      // window is waited.
      const used = allowed === undefined ? undefined : allowed - left;
      const oldest = used !== undefined && used > 0 && calls.length >= used ? calls[calls.length - used]! : at;
      return Math.max(0, oldest + windowMs - at);
    },
    onLimit(headers, body) {
      const policy = (body as { policyName?: unknown } | undefined)?.policyName;
      const message = (body as { message?: unknown } | undefined)?.message;
      if (policy === 'DAILY')
        return {
          stop: `HubSpot's daily allowance of API calls is used up${typeof message === 'string' ? ` ("${message.slice(0, 200)}")` : ''}: the sync stops here and goes on from where it stopped when run again tomorrow, once HubSpot's day has turned.`,
        };
      if (policy === 'TEN_SECONDLY_ROLLING' || policy === 'SECONDLY') return { waitMs: windowOf(headers) };
      return undefined;
    },
  };
}
