import { LiveChecksForm } from '../components/live-checks-form.tsx';
import { useEffect, useState } from 'react';
import { useStateResetBy } from '../use-state-reset-by.ts';
import { formatCount } from '../format.ts';
import { serviceActions, useServiceStore } from '../stores/service-store.ts';
import { useFocusHeading } from '../use-focus-heading.ts';
import './settings-screen.css';
import './history-screen.css';
import './check-screen.css';
import '../components/row-explorer.css';

const when = (iso: string | null) =>
  iso === null ? 'never' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const deliveryWords = { pending: 'Waiting', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

/** Sift's own service, as its dashboard: keys, webhook endpoints and deliveries, credits and threshold. */
export function ServiceScreen() {
  const overview = useServiceStore((state) => state.overview);
  const shownOnce = useServiceStore((state) => state.shownOnce);
  const busy = useServiceStore((state) => state.busy);
  const error = useServiceStore((state) => state.error);
  const sharing = useServiceStore((state) => state.sharing);
  const notice = useServiceStore((state) => state.notice);
  const heading = useFocusHeading<HTMLHeadingElement>('service');
  const [keyLabel, setKeyLabel] = useState('');
  const [keyMode, setKeyMode] = useState<'live' | 'sandbox'>('sandbox');
  const [hookUrl, setHookUrl] = useState('');
  const lowThreshold = overview?.account.lowThreshold;
  const [threshold, setThreshold] = useStateResetBy(() => lowThreshold?.toString() ?? '', lowThreshold);
  const [copied, setCopied] = useStateResetBy(() => false, shownOnce?.secret);
  const [port, setPort] = useStateResetBy(() => (sharing ? String(sharing.port) : ''), sharing?.port);

  useEffect(() => {
    void serviceActions.load();
    return serviceActions.forgetSecret;
  }, []);

  return (
    <section className="card card--padded settings" aria-labelledby="service-heading">
      <h2 className="card__title" id="service-heading" tabIndex={-1} ref={heading}>
        Sift's service
      </h2>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {shownOnce && (
        <div className="settings__test" role="status" data-testid="shown-once">
          <p>
            The new {shownOnce.what} for {shownOnce.label}, shown only now: <code>{shownOnce.secret}</code>
          </p>
          <button
            type="button"
            className="button"
            onClick={() => void navigator.clipboard.writeText(shownOnce.secret).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {overview && (
        <>
          <p className="note">
            Running on this computer at {overview.baseUrl}. Credits: {formatCount(overview.account.balance)}, and{' '}
            {formatCount(overview.account.freeRemaining)} free checks left this month.
          </p>
          <form
            className="check__form settings__inline"
            onSubmit={(event) => {
              event.preventDefault();
              void serviceActions.setThreshold(threshold.trim() === '' ? null : Number(threshold));
            }}
          >
            <label className="settings__field">
              <span>Warn when credits fall below (empty: never)</span>
              <input type="number" min={0} step={1} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
            </label>
            <button type="submit" className="button" disabled={busy}>
              Save threshold
            </button>
          </form>

          <h3 className="settings__title">Other tools on this computer</h3>
          {sharing && (
            <form
              className="check__form settings__inline"
              onSubmit={(event) => {
                event.preventDefault();
                void serviceActions.setSharing({ enabled: sharing.enabled, port: Number(port) });
              }}
            >
              <label className="keep__option">
                <input
                  type="checkbox"
                  checked={sharing.enabled}
                  onChange={() => void serviceActions.setSharing({ enabled: !sharing.enabled, port: Number(port) })}
                />{' '}
                Listen on a fixed port, so other tools here can use it with one of these keys
              </label>
              <label className="settings__field">
                <span>Port</span>
                <input type="number" min={1024} max={65535} value={port} onChange={(e) => setPort(e.target.value)} />
              </label>
              <button type="submit" className="button" disabled={busy}>
                Save port
              </button>
            </form>
          )}
          <h3 className="settings__title">Live checks</h3>
          <LiveChecksForm />
          {notice && (
            <p className="note" role="status">
              {notice}
            </p>
          )}

          <h3 className="settings__title">API keys</h3>
          <form
            className="check__form settings__inline"
            onSubmit={(event) => {
              event.preventDefault();
              void serviceActions.createKey(keyMode, keyLabel).then(() => setKeyLabel(''));
            }}
          >
            <label className="settings__field">
              <span>Name of the new key</span>
              <input
                type="text"
                required
                maxLength={100}
                value={keyLabel}
                onChange={(e) => setKeyLabel(e.target.value)}
              />
            </label>
            <label className="settings__field">
              <span>Kind</span>
              <select value={keyMode} onChange={(e) => setKeyMode(e.target.value as 'live' | 'sandbox')}>
                <option value="sandbox">Sandbox (scripted verdicts, free)</option>
                <option value="live">Live (spends credits)</option>
              </select>
            </label>
            <button type="submit" className="button button--primary" disabled={busy || keyLabel.trim() === ''}>
              Create key
            </button>
          </form>
          <table className="history" data-testid="service-keys">
            <caption className="visually-hidden">API keys of Sift's service</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Kind</th>
                <th scope="col">Made</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.label}</th>
                  <td>{key.masked}</td>
                  <td>{key.mode === 'live' ? 'Live' : 'Sandbox'}</td>
                  <td>{when(key.createdAt)}</td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>
                    {key.state === 'revoked' ? (
                      'Revoked'
                    ) : key.usedByApp ? (
                      'Used by Sift'
                    ) : (
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={busy}
                        aria-label={`Revoke ${key.label}`}
                        onClick={() => void serviceActions.revokeKey(key.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>

          <h3 className="settings__title">
            Webhooks{' '}
            <button type="button" className="link-button" onClick={() => void serviceActions.load()}>
              Refresh
            </button>
          </h3>
          <form
            className="check__form settings__inline"
            onSubmit={(event) => {
              event.preventDefault();
              void serviceActions.addWebhook(hookUrl).then(() => setHookUrl(''));
            }}
          >
            <label className="settings__field">
              <span>Endpoint URL</span>
              <input type="url" required value={hookUrl} onChange={(e) => setHookUrl(e.target.value)} />
            </label>
            <button type="submit" className="button" disabled={busy || hookUrl.trim() === ''}>
              Add endpoint
            </button>
          </form>
          <ul className="check__recent" data-testid="service-endpoints">
            {overview.endpoints.map((endpoint) => (
              <li key={endpoint.id}>
                {endpoint.url}{' '}
                <button
                  type="button"
                  className="button"
                  aria-label={`Remove ${endpoint.url}`}
                  onClick={() => void serviceActions.removeWebhook(endpoint.id)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {overview.deliveries.length > 0 && (
            <table className="history" data-testid="service-deliveries">
              <caption className="visually-hidden">Webhook deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">State</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <th scope="row">{delivery.eventType}</th>
                    <td>{deliveryWords[delivery.status]}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.lastError ?? (delivery.lastStatus === null ? '' : `HTTP ${delivery.lastStatus}`)}</td>
                    <td>
                      {(delivery.status === 'failed' || delivery.status === 'retrying') && (
                        <button
                          type="button"
                          className="button"
                          aria-label={`${delivery.status === 'failed' ? 'Replay' : 'Send again now'}: ${delivery.eventType} delivery`}
                          onClick={() => void serviceActions.replayDelivery(delivery.id)}
                        >
                          {/* A retrying delivery waits for its next try; a person may send it at once. */}
                          {delivery.status === 'failed' ? 'Replay' : 'Send again now'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
