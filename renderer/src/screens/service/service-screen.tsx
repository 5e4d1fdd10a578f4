import { LiveChecksForm } from '../../components/live-checks-form.tsx';
import { useEffect } from 'react';
import { useStateResetBy } from '../../use-state-reset-by.ts';
import { ServiceAccount } from './service-account.tsx';
import { ServiceKeys } from './service-keys.tsx';
import { ServiceWebhooks } from './service-webhooks.tsx';
import { serviceActions, useServiceStore } from '../../stores/service-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';

/** Sift's own service, as its dashboard: keys, webhook endpoints and deliveries, credits and threshold. */
export function ServiceScreen() {
  const overview = useServiceStore((state) => state.overview);
  const shownOnce = useServiceStore((state) => state.shownOnce);
  const busy = useServiceStore((state) => state.busy);
  const error = useServiceStore((state) => state.error);
  const notice = useServiceStore((state) => state.notice);
  const heading = useFocusHeading<HTMLHeadingElement>('service');
  const [copied, setCopied] = useStateResetBy(() => false, shownOnce?.secret);

  useEffect(() => {
    void serviceActions.load();
    return serviceActions.forgetSecret;
  }, []);

  return (
    <section className="card card--padded form-screen" aria-labelledby="service-heading">
      <h2 className="card__title" id="service-heading" tabIndex={-1} ref={heading}>
        Sift's service
      </h2>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {shownOnce && (
        <div className="test-result" role="status" data-testid="shown-once">
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
          <ServiceAccount overview={overview} busy={busy} />
          <h3 className="section-title">Live checks</h3>
          <LiveChecksForm />
          {notice && (
            <p className="note" role="status">
              {notice}
            </p>
          )}

          <h3 className="section-title">API keys</h3>
          <ServiceKeys overview={overview} busy={busy} />

          <ServiceWebhooks overview={overview} busy={busy} />
        </>
      )}
    </section>
  );
}
