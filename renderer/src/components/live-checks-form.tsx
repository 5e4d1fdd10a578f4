import { useState } from 'react';
import { useStateResetBy } from '../use-state-reset-by.ts';
import { engineSettingsSchema, type EngineSettings } from '../../../electron/common/settings-schemas.ts';
import { serviceActions, useServiceStore } from '../stores/service-store.ts';
import { LiveCheckTestButton, ProxiesField, proxyRowsOf, proxyTextsOf, type ProxyRow } from './live-check-reach.tsx';
import './live-checks-form.css';

type Field = { name: keyof EngineSettings; label: string; hint: string; kind: 'text' | 'number' | 'list' };

const fields: Field[] = [
  { name: 'helo', label: 'HELO name', hint: "this computer's name; its DNS should point back here", kind: 'text' },
  { name: 'mailFrom', label: 'MAIL FROM address', hint: 'on a domain you own', kind: 'text' },
  {
    name: 'resolvers',
    label: 'DNS servers',
    hint: "IP addresses, comma-separated; empty: this computer's",
    kind: 'list',
  },
  { name: 'perHostRate', label: 'Probes a second to one mail server', hint: 'default 2', kind: 'number' },
  { name: 'perHostConcurrency', label: 'Connections at once to one mail server', hint: 'default 2', kind: 'number' },
  { name: 'concurrency', label: 'Connections at once in all', hint: 'default 20', kind: 'number' },
  { name: 'timeoutSeconds', label: 'Wait for each answer (seconds)', hint: 'default 15', kind: 'number' },
  {
    name: 'greylistRetryMinutes',
    label: 'Ask deferred addresses again after (minutes)',
    hint: 'default 5, 10, 20, 40',
    kind: 'list',
  },
];

const asText = (value: EngineSettings[keyof EngineSettings]) =>
  value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);

/** The typed text as settings: empty fields are left out; numbers and lists as the schema wants them. */
function parse(texts: Record<string, string>): Record<string, unknown> {
  const candidate: Record<string, unknown> = {};
  for (const field of fields) {
    const text = (texts[field.name] ?? '').trim();
    if (text === '') continue;
    if (field.kind === 'number') candidate[field.name] = Number(text);
    else if (field.kind === 'list') {
      const items = text.split(',').map((item) => item.trim());
      candidate[field.name] = field.name === 'greylistRetryMinutes' ? items.map(Number) : items;
    } else candidate[field.name] = text;
  }
  return candidate;
}

/** How Sift's own service checks live addresses: the same settings as `sift service`'s flags. */
export function LiveChecksForm() {
  const engine = useServiceStore((state) => state.engine);
  const busy = useServiceStore((state) => state.busy);
  const [texts, setTexts] = useStateResetBy<Record<string, string>>(
    (typed = {}) =>
      engine ? Object.fromEntries(fields.map((field) => [field.name, asText(engine.saved[field.name])])) : typed,
    engine,
  );
  const [proxyRows, setProxyRows] = useStateResetBy<ProxyRow[]>(
    (typed = []) => (engine ? proxyRowsOf(engine.saved.proxies) : typed),
    engine,
  );
  const [problem, setProblem] = useState<{ field: string; message: string }>();
  if (!engine) return null;
  const placeholder = (field: Field) =>
    field.name === 'helo' ? engine.defaults.helo : field.name === 'mailFrom' ? engine.defaults.mailFrom : '';

  return (
    <form
      className="live-checks"
      aria-describedby="live-checks-note"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = engineSettingsSchema.safeParse({ ...parse(texts), proxies: proxyTextsOf(proxyRows) });
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = fields.find((candidate) => candidate.name === issue.path[0]);
          const label = issue.path[0] === 'proxies' ? 'Each proxy' : (field?.label ?? 'A value');
          setProblem({
            field: String(issue.path[0]),
            message: `${label}: ${field?.hint ?? issue.message}.`,
          });
          return;
        }
        setProblem(undefined);
        void serviceActions.setEngine(parsed.data);
      }}
    >
      <p className="note" id="live-checks-note">
        Live keys on Sift's own service ask each address's mail server on port 25, without sending mail. Many networks
        block port 25; then live checks come back Unknown and are not charged.
      </p>
      <div className="live-checks__fields">
        {fields.map((field) => (
          <label className="form-field" key={field.name}>
            <span>
              {field.label} <span className="hint">({field.hint})</span>
            </span>
            <input
              type="text"
              inputMode={field.kind === 'number' ? 'decimal' : undefined}
              value={texts[field.name] ?? ''}
              placeholder={placeholder(field)}
              aria-invalid={problem?.field === field.name ? true : undefined}
              onChange={(event) => setTexts({ ...texts, [field.name]: event.target.value })}
            />
          </label>
        ))}
      </div>
      <ProxiesField rows={proxyRows} onChange={setProxyRows} />
      <LiveCheckTestButton proxies={proxyTextsOf(proxyRows)} />
      {problem && (
        <p className="alert" role="alert" data-testid="live-checks-problem">
          {problem.message}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        Save live-check settings
      </button>
    </form>
  );
}
