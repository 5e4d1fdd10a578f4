import { useState } from 'react';
import type { ServiceOverview } from '../../../../electron/common/contract.ts';
import { serviceActions } from '../../stores/service-store.ts';
import { when } from './service-words.ts';
import { TableHead } from '../../ui/table-head.tsx';

/** The service's API keys: made here (the full key is shown once), listed masked, revoked. */
export function ServiceKeys({ overview, busy }: { overview: ServiceOverview; busy: boolean }) {
  const [keyLabel, setKeyLabel] = useState('');
  const [keyMode, setKeyMode] = useState<'live' | 'sandbox'>('sandbox');
  return (
    <>
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void serviceActions.createKey(keyMode, keyLabel).then(() => setKeyLabel(''));
        }}
      >
        <label className="form-field">
          <span>Name of the new key</span>
          <input type="text" required maxLength={100} value={keyLabel} onChange={(e) => setKeyLabel(e.target.value)} />
        </label>
        <label className="form-field">
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
      <table className="data-table" data-testid="service-keys">
        <caption className="visually-hidden">API keys of Sift's service</caption>
        <TableHead columns={['Name', 'Key', 'Kind', 'Made', 'Last used']} />
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
    </>
  );
}
