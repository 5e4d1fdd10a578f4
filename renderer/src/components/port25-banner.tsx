import { go } from '../stores/nav-store.ts';
import { useSettingsStore } from '../stores/settings-store.ts';
import './port25-banner.css';

/**
 * Live checks need the service to reach mail servers on port 25, which most home and office networks
 * block. When the service says so, every screen says what it means and what to do.
 */
export function Port25Banner() {
  const blocked = useSettingsStore((state) => state.account?.mode === 'live' && state.account.port25 === 'blocked');
  if (!blocked) return null;
  return (
    <div className="port25-banner" role="alert" data-testid="port25-banner">
      <p>
        <strong>Live checks cannot reach mail servers from this network.</strong> Outbound port 25 is blocked here, so
        addresses come back <em>Unknown</em> and nothing is charged for them.
      </p>
      <p>
        Use a hosted verification service, or run <code>sift service</code> on a server that may connect out on port 25.{' '}
        <button type="button" className="link-button" onClick={() => go('settings')}>
          Open Settings
        </button>
      </p>
    </div>
  );
}
