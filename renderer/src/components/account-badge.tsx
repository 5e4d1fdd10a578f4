import { formatCount } from '../format.ts';
import { go } from '../stores/nav-store.ts';
import { useSettingsStore } from '../stores/settings-store.ts';
import './account-badge.css';

/** Demo (a sandbox key) or Live, and a live account's credits, on every screen; a click opens Settings. */
export function AccountBadge() {
  const account = useSettingsStore((state) => state.account);
  if (!account) return null;
  const live = account.mode === 'live';
  const text = account.problem
    ? 'Service not reachable'
    : live
      ? [
          'Live',
          // Only what the service said: a balance it does not give is not shown as none.
          ...(account.balance === undefined
            ? []
            : [`${formatCount(account.balance)} credits${account.low ? ' (low)' : ''}`]),
          ...(account.freeRemaining === undefined ? [] : [`${formatCount(account.freeRemaining)} free`]),
        ].join(' · ')
      : 'Demo (sandbox key)';
  const kind = account.problem || account.low ? ' account-badge--problem' : live ? ' account-badge--live' : '';
  return (
    <button
      type="button"
      className={`account-badge${kind}`}
      data-testid="account-badge"
      title={account.problem ?? (account.low ? 'Credits are under the low-balance threshold: top up soon.' : undefined)}
      aria-label={`Account: ${text}. Open Settings`}
      onClick={() => go('settings')}
    >
      {text}
    </button>
  );
}
