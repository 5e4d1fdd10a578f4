import { useState } from 'react';
import type { ServiceOverview } from '../../../../electron/common/contract.ts';
import { serviceActions } from '../../stores/service-store.ts';
import { TableHead } from '../../ui/table-head.tsx';

const deliveryWords = { pending: 'Waiting', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

/** Where the service's events go (webhook endpoints), and how each delivery went; a failed one is sent again by hand. */
export function ServiceWebhooks({ overview, busy }: { overview: ServiceOverview; busy: boolean }) {
  const [hookUrl, setHookUrl] = useState('');
  return (
    <>
      <h3 className="section-title">
        Webhooks{' '}
        <button type="button" className="link-button" onClick={() => void serviceActions.load()}>
          Refresh
        </button>
      </h3>
      <p className="note" data-testid="webhook-rule">
        {overview.privateWebhooks
          ? 'Webhooks may go to this computer and private networks: this service runs with --allow-private-webhooks.'
          : 'Webhooks go only to public addresses: this computer, link-local and private networks are refused, as any key holder’s batch makes the service send to every endpoint. A service of your own that needs them runs with sift service --allow-private-webhooks.'}
      </p>
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void serviceActions.addWebhook(hookUrl).then(() => setHookUrl(''));
        }}
      >
        <label className="form-field">
          <span>Endpoint URL</span>
          <input type="url" required value={hookUrl} onChange={(e) => setHookUrl(e.target.value)} />
        </label>
        <button type="submit" className="button" disabled={busy || hookUrl.trim() === ''}>
          Add endpoint
        </button>
      </form>
      <ul className="plain-list" data-testid="service-endpoints">
        {overview.endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            {endpoint.url}{' '}
            {endpoint.inside && (
              <span className="hint">
                ({endpoint.inside}: {overview.privateWebhooks ? 'delivered, as this service allows' : 'not delivered'}
                ){' '}
              </span>
            )}
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
        <table className="data-table" data-testid="service-deliveries">
          <caption className="visually-hidden">Webhook deliveries, newest first</caption>
          <TableHead columns={['Event', 'State', 'Attempts', 'Last answer']} />
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
  );
}
