// Settings' part on the verdict cache: how many verdicts Sift keeps from earlier lists, how old the oldest
// is, what they take on disk, how long each kind is reused, and forgetting them all (after a second click).
import { useEffect, useState } from 'react';
import type { CacheStats } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';
import { formatBytes, formatCount } from '../format.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';

function describeStats(stats: CacheStats): string {
  if (stats.entries === 0) return 'No verdicts kept yet: each list checked adds its verdicts here.';
  const kept =
    stats.sandbox === stats.entries
      ? `${formatCount(stats.entries)} demo verdicts kept (from sandbox keys)`
      : `${formatCount(stats.entries)} verdicts kept${stats.sandbox > 0 ? `, ${formatCount(stats.sandbox)} of them demo verdicts` : ''}`;
  const oldest = new Date(stats.oldest!).toLocaleDateString();
  return `${kept}; the oldest checked ${oldest}; ${formatBytes(stats.bytes)} on disk.`;
}

const describeAges = (maxAgeDays: Record<string, number>) =>
  Object.entries(maxAgeDays)
    .map(([result, days]) => `${result.replace('_', '-')} for ${days} days`)
    .join(', ');

export function VerdictCacheSettings() {
  const [stats, setStats] = useState<CacheStats>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();

  const load = () =>
    sift.cache
      .stats()
      .then(setStats)
      .catch((failure: unknown) => setError(errorMessage(failure)));
  useEffect(() => void load(), []);

  async function clear() {
    try {
      const { forgotten } = await sift.cache.clear();
      setMessage(`Forgot ${formatCount(forgotten)} verdicts: the next lists check every address.`);
      await load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <section aria-labelledby="verdict-cache-heading" data-testid="verdict-cache">
      <h3 className="section-title" id="verdict-cache-heading">
        Verdicts from earlier lists
      </h3>
      <p className="note">
        An address checked for one list is not sent or paid for again while its verdict is young enough
        {stats ? ` (${describeAges(stats.maxAgeDays)}; unknown never)` : ''}. Demo and live verdicts are kept apart.
        Addresses are kept as keyed hashes, never in clear.
      </p>
      {stats && (
        <p className="note" data-testid="verdict-cache-stats">
          {describeStats(stats)}
        </p>
      )}
      {message && (
        <p className="note" role="status">
          {message}
        </p>
      )}
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      <ConfirmButton
        ask={{
          label: 'Clear…',
          className: 'button settings-screen__change',
          testId: 'clear-cache',
          disabled: !stats || stats.entries === 0,
        }}
        confirm={{ label: `Forget ${formatCount(stats?.entries ?? 0)} verdicts`, testId: 'confirm-clear-cache' }}
        keep="Keep them"
        wrap={(pair) => <div className="card__actions">{pair}</div>}
        onAsk={() => setMessage(undefined)}
        onConfirm={clear}
      />
    </section>
  );
}
