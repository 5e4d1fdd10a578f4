import { go } from '../stores/nav-store.ts';
import { useSettingsStore } from '../stores/settings-store.ts';
import './port25-banner.css';

/**
 * Mail servers of several unrelated domains refuse the service's own sending address (a blocklist it is
 * on, its address or its name): every live check from there is wasted until it goes out another way.
 */
export function SenderBanner() {
  const refused = useSettingsStore((state) =>
    state.account?.mode === 'live' ? state.account.senderRefused : undefined,
  );
  if (!refused) return null;
  const from = refused.wayOut && refused.wayOut !== 'direct' ? `through ${refused.wayOut}` : 'from its address';
  return (
    <div className="port25-banner" role="alert" data-testid="sender-banner">
      <p>
        <strong>Mail servers refuse this service&rsquo;s sending address.</strong> Servers of{' '}
        {refused.refusedBy ?? 'several'} unrelated domains turned the live checks away {from}, so addresses come back{' '}
        <em>Unknown</em> and nothing is charged for them.
      </p>
      {refused.reply ? (
        <p>
          The newest refusal: <code>{refused.reply}</code>
        </p>
      ) : null}
      <p>
        Send the checks out another way (a SOCKS5 proxy), or run <code>sift service</code> on a server of your own whose
        address and HELO name have matching DNS.{' '}
        {refused.blocklist ? (
          <>
            The refusal names {refused.blocklist}: ask for the address to be removed at{' '}
            <code>{refused.removalUrl ?? 'its site'}</code>.{' '}
          </>
        ) : null}
        <button type="button" className="link-button" onClick={() => go('settings')}>
          Open Settings
        </button>
      </p>
    </div>
  );
}
