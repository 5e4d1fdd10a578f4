import { useState, type FormEvent } from 'react';
import type { ConnectionTestResult, SettingsView } from '../../../electron/common/contract.ts';
import { formatCount } from '../format.ts';
import { settingsActions, useSettingsStore, type HostedForm } from '../stores/settings-store.ts';
import { useStateResetBy } from '../use-state-reset-by.ts';
import './hosted-service-form.css';

export const protectionWords: Record<SettingsView['keyProtection'], string> = {
  encrypted: "The key is kept encrypted with your system's keychain.",
  'this-run-only':
    'This computer has no keychain Sift can use: the key is kept in memory and forgotten when Sift quits.',
  'file-0600': 'In the browser version the key is kept in a file only your user account can read; it is not encrypted.',
};

export function describeTest(test: ConnectionTestResult): string {
  if (!test.ok) return test.message;
  const mode = test.mode === 'live' ? 'a live key' : test.mode === 'sandbox' ? 'a sandbox key' : `a ${test.mode} key`;
  // A service that does not say its balance is not said to have none.
  const balance = test.balance === undefined ? '' : ` Balance ${formatCount(test.balance)} credits.`;
  const free =
    test.freeRemaining === undefined ? '' : ` ${formatCount(test.freeRemaining)} free checks left this month.`;
  const credits =
    test.mode === 'live'
      ? `${balance}${free}`
      : ' A sandbox key gives scripted demo verdicts: no mail server is asked.';
  return `Connected with ${mode}.${credits}`;
}

/** What the service takes and gives beside the spec's main path, under a successful test. */
function TestSupports({ test }: { test: ConnectionTestResult }) {
  if (!test.ok) return null;
  return (
    <dl className="hosted-form__supports" data-testid="connection-supports">
      <dt>Lists are sent</dt>
      <dd>{test.supports.uploads}</dd>
      <dt>Results are read</dt>
      <dd>{test.supports.results}</dd>
    </dl>
  );
}

type HostedServiceFormProps = {
  settings: SettingsView;
  /** What the URL field calls the service ("Service URL", "Server URL"). */
  urlLabel?: string;
  /** Called once the service is saved and in use. */
  onSaved?: () => void;
};

/** A verification service by its URL and an API key: tested, saved (the key to main's vault) and forgotten. */
export function HostedServiceForm({ settings, urlLabel = 'Service URL', onSaved }: HostedServiceFormProps) {
  const test = useSettingsStore((state) => state.test);
  const busy = useSettingsStore((state) => state.busy);
  const hosted = settings.hosted ?? null;
  // The form follows the saved service whenever that changes (saved, replaced or forgotten), keeping what was typed otherwise.
  const [form, setForm] = useStateResetBy<HostedForm>(
    (typed = { baseUrl: '', label: '', apiKey: '' }) =>
      hosted ? { ...typed, baseUrl: hosted.baseUrl, label: hosted.label, apiKey: '' } : typed,
    hosted && `${hosted.baseUrl}\0${hosted.label}\0${hosted.maskedKey}`,
  );
  const [replacingKey, setReplacingKey] = useState(false);
  const needsKey = !hosted || replacingKey || !hosted.keyAvailable;
  const update = (field: keyof HostedForm) => (event: { target: { value: string } }) =>
    setForm({ ...form, [field]: event.target.value });
  const save = (event: FormEvent) => {
    event.preventDefault();
    void settingsActions.saveHosted(form).then((saved) => {
      setReplacingKey(false);
      if (saved) onSaved?.();
    });
  };

  return (
    <>
      <form className="form-stack" onSubmit={save}>
        <label className="form-field">
          <span>{urlLabel}</span>
          <input
            type="url"
            required
            placeholder="https://verify.example.com"
            value={form.baseUrl}
            onChange={update('baseUrl')}
            autoComplete="url"
          />
        </label>
        <label className="form-field">
          <span>Name (optional)</span>
          <input type="text" value={form.label} onChange={update('label')} maxLength={100} />
        </label>
        {needsKey ? (
          <label className="form-field">
            <span>API key</span>
            <input
              type="password"
              required
              value={form.apiKey}
              onChange={update('apiKey')}
              autoComplete="off"
              spellCheck={false}
              placeholder="svc_live_…"
            />
          </label>
        ) : (
          <p className="hosted-form__key" data-testid="saved-key">
            API key {hosted?.maskedKey}{' '}
            <button type="button" className="button" onClick={() => setReplacingKey(true)}>
              Replace key
            </button>
          </p>
        )}
        {hosted && !hosted.keyAvailable && (
          <p className="note">The key was kept for one run only and is gone: enter it again.</p>
        )}
        <p className="note">{protectionWords[settings.keyProtection]}</p>
        <div className="card__actions">
          <button
            type="button"
            className="button"
            disabled={busy || form.baseUrl.trim() === '' || (needsKey && form.apiKey.trim() === '')}
            onClick={() => void settingsActions.testConnection(form)}
          >
            {busy ? 'Working…' : 'Test connection'}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            Save and use this service
          </button>
          {hosted && (
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onClick={() => void settingsActions.forgetHosted()}
            >
              Forget this service
            </button>
          )}
        </div>
      </form>
      {test && (
        <div
          className={test.ok ? 'settings__test settings__test--ok' : 'alert'}
          role={test.ok ? undefined : 'alert'}
          data-testid="connection-test"
        >
          {describeTest(test)}
          <TestSupports test={test} />
        </div>
      )}
    </>
  );
}
