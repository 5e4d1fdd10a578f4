import type { LiveCheckTest } from '../../../electron/common/contract.ts';
import { settingsActions, useSettingsStore } from '../stores/settings-store.ts';
import './live-check-reach.css';

/** One proxy as the form holds it: its address (with the user, never the password) and a password typed now. */
export type ProxyRow = { address: string; password: string; kept: boolean };

const kept = '•••';

/** The saved proxies (their passwords as •••) as form rows. */
export function proxyRowsOf(saved: readonly string[] | undefined): ProxyRow[] {
  return (saved ?? []).map((text) => {
    const hasKept = text.includes(`:${kept}@`);
    return { address: text.replace(`:${kept}@`, '@'), password: '', kept: hasKept };
  });
}

/** The rows as main takes them: a password typed now goes in the URL, a kept one as •••. */
export function proxyTextsOf(rows: readonly ProxyRow[]): string[] {
  return rows
    .filter((row) => row.address.trim() !== '')
    .map((row) => {
      const address = row.address.trim();
      const password = row.password !== '' ? encodeURIComponent(row.password) : row.kept ? kept : '';
      const at = address.indexOf('@');
      if (password === '' || at === -1) return address;
      return `${address.slice(0, at)}:${password}${address.slice(at)}`;
    });
}

/**
 * SOCKS5 proxies for live checks, each an address and a password field: a password is typed into a
 * password field and never shown again (a saved one keeps its place until replaced or removed).
 */
export function ProxiesField({ rows, onChange }: { rows: ProxyRow[]; onChange(rows: ProxyRow[]): void }) {
  const change = (index: number, patch: Partial<ProxyRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="reach__proxies">
      <legend>
        SOCKS5 proxies <span className="hint">(optional; for networks that block port 25)</span>
      </legend>
      {rows.map((row, index) => (
        <div className="reach__proxy" key={index}>
          <label className="form-field">
            <span>Proxy {index + 1}</span>
            <input
              type="text"
              value={row.address}
              spellCheck={false}
              autoComplete="off"
              placeholder="socks5://user@proxy.example.com:1080"
              onChange={(event) => change(index, { address: event.target.value })}
            />
          </label>
          <label className="form-field">
            <span>Password{row.kept ? ' (saved)' : ''}</span>
            <input
              type="password"
              value={row.password}
              autoComplete="off"
              placeholder={row.kept ? 'kept: type to replace' : 'none'}
              onChange={(event) => change(index, { password: event.target.value })}
            />
          </label>
          <button
            type="button"
            className="button"
            aria-label={`Remove proxy ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button reach__add"
        onClick={() => onChange([...rows, { address: '', password: '', kept: false }])}
      >
        Add a proxy
      </button>
      <p className="hint">
        Every conversation with a mail server goes out through one of them; DNS is asked from this computer. Passwords
        are kept encrypted where the system has a keychain, and never shown again.
      </p>
    </fieldset>
  );
}

function verdictOf(test: LiveCheckTest): string {
  if (test.usable) return 'Live checks from this computer will reach mail servers.';
  return test.proxies.length > 0
    ? 'No proxy reached a mail server: live checks would come back Unknown (and not be charged). Fix the proxies, or choose another way.'
    : 'Live checks from here would come back Unknown (and not be charged). Add a SOCKS5 proxy on a machine that may use port 25, or choose another way.';
}

/** Tries port 25 now, directly and through each proxy, and says what it found, naming each proxy. */
export function LiveCheckTestButton({ proxies }: { proxies: string[] }) {
  const test = useSettingsStore((state) => state.liveTest);
  const testing = useSettingsStore((state) => state.liveTesting);
  return (
    <div className="reach">
      <button
        type="button"
        className="button"
        disabled={testing}
        onClick={() => void settingsActions.testLiveChecks(proxies)}
      >
        {testing ? 'Trying port 25…' : 'Test port 25 now'}
      </button>
      {testing && (
        <p className="note" role="status">
          Asking a few big providers' mail servers, directly and through each proxy (up to 8 seconds)…
        </p>
      )}
      {test && (
        <div
          className={`test-result ${test.usable ? 'test-result--ok' : 'reach__blocked'}`}
          role="status"
          data-testid="live-check-test"
        >
          <ul className="reach__findings">
            <li>{test.direct.message}</li>
            {test.proxies.map((proxy) => (
              <li key={proxy.proxy}>{proxy.message}</li>
            ))}
            <li data-testid="blocklists" className={test.blocklists.state === 'listed' ? 'reach__listed' : undefined}>
              {test.blocklists.message}
            </li>
          </ul>
          <p className="reach__verdict">{verdictOf(test)}</p>
        </div>
      )}
    </div>
  );
}
