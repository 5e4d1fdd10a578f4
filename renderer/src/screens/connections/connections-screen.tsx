import { useEffect, useState } from 'react';
import type { ConnectionView } from '../../../../electron/common/contract.ts';
import { connectorKinds, toolNames, type ConnectorKind } from '../../../../electron/common/connector-schemas.ts';
import { connectionsActions, useConnectionsStore, type ConnectForm } from '../../stores/connections-store.ts';
import { ChangeNotices } from '../../ui/change-notices.tsx';
import { protectionWords } from '../../components/hosted-service-form.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { useFocusHeading } from '../../use-focus-heading.ts';
import { SyncList } from './sync-list.tsx';
import { ScheduleList } from './schedule-parts.tsx';
import { AudienceTable } from './audience-table.tsx';
import '../suppression/suppression-screen.css';
import './connections-screen.css';

/** What each tool's secret is called, as its own pages call it. */
const secretLabels: Record<ConnectorKind, string> = {
  mailchimp: 'API key (ends in -us1, -us21, …)',
  hubspot: "Private app's access token",
  mailman: 'REST password',
};

/** Mailing tools: connecting one, its lists, and each list's sync from reading to writing back. */
export function ConnectionsScreen() {
  const notice = useConnectionsStore((state) => state.notice);
  const caughtUp = useConnectionsStore((state) => state.page?.caughtUp);
  const error = useConnectionsStore((state) => state.error);
  const heading = useFocusHeading<HTMLHeadingElement>('connections');

  useEffect(() => {
    void connectionsActions.load();
  }, []);

  return (
    <section className="card card--padded suppression connections" aria-labelledby="connections-heading">
      <h2 className="card__title" id="connections-heading" tabIndex={-1} ref={heading}>
        Mailing tools
      </h2>
      <p className="note">
        Sift reads a list from Mailchimp, HubSpot or Mailman 3 (only the people the tool would mail), cleans it as any
        list (its cost shown before anything is sent), then shows exactly what it would change. Nothing is written to
        the tool until you ask. Sift never re-subscribes or deletes anyone; it archives or unsubscribes invalid members
        only when you tick that.
      </p>
      {caughtUp && (
        <p className="note" data-testid="caught-up">
          {caughtUp}
        </p>
      )}
      <ChangeNotices prefix="connections" notice={notice} error={error} />
      <ConnectTool />
      <ConnectionTable />
      <AudienceTable />
      <ScheduleList />
      <SyncList />
    </section>
  );
}

function ConnectTool() {
  const busy = useConnectionsStore((state) => state.busy);
  const [form, setForm] = useState<ConnectForm>({ kind: 'mailchimp', name: '', secret: '', apiUrl: '', user: '' });
  const change = (field: keyof ConnectForm) => (event: { target: { value: string } }) =>
    setForm({ ...form, [field]: event.target.value });
  const mailman = form.kind === 'mailman';
  const protection = useConnectionsStore((state) => state.page?.secretProtection);
  return (
    <form
      className="connections__form"
      aria-label="Connect a tool"
      onSubmit={(event) => {
        event.preventDefault();
        void connectionsActions.add(form).then((done) => done && setForm({ ...form, name: '', secret: '' }));
      }}
    >
      <label className="form-field">
        <span>Tool</span>
        <select value={form.kind} onChange={change('kind')} data-testid="connect-kind">
          {connectorKinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind === 'mailman' ? 'Mailman 3' : toolNames[kind]}
            </option>
          ))}
        </select>
      </label>
      <label className="form-field">
        <span>Name (yours, for this connection)</span>
        <input
          value={form.name}
          onChange={change('name')}
          placeholder="newsletter"
          required
          pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
        />
      </label>
      <label className="form-field">
        <span>{secretLabels[form.kind]}</span>
        <input type="password" autoComplete="off" value={form.secret} onChange={change('secret')} required />
      </label>
      <label className="form-field">
        <span>{mailman ? 'REST address' : 'API address (leave empty for the tool’s own)'}</span>
        <input
          type="url"
          value={form.apiUrl}
          onChange={change('apiUrl')}
          placeholder={mailman ? 'http://localhost:8001' : ''}
          required={mailman}
        />
      </label>
      {mailman && (
        <label className="form-field">
          <span>REST user</span>
          <input value={form.user} onChange={change('user')} required />
        </label>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        Connect
      </button>
      <p className="note connections__secret-note">
        The secret is tried once now and never shown again. {protection ? protectionWords[protection] : ''}
      </p>
    </form>
  );
}

function ConnectionTable() {
  const page = useConnectionsStore((state) => state.page);
  if (!page) return null;
  if (page.connections.length === 0) return <p className="note">No tool is connected yet.</p>;
  return (
    <table className="data-table" data-testid="connections-table">
      <caption className="visually-hidden">Connected tools</caption>
      <TableHead columns={['Name', 'Tool', 'Reaches']} />
      <tbody>
        {page.connections.map((connection) => (
          <ConnectionRow key={connection.name} connection={connection} />
        ))}
      </tbody>
    </table>
  );
}

function ConnectionRow({ connection }: { connection: ConnectionView }) {
  const busy = useConnectionsStore((state) => state.busy);
  const [confirming, setConfirming] = useState(false);
  const { name } = connection;
  return (
    <tr>
      <td>{name}</td>
      <td>{toolNames[connection.kind]}</td>
      <td>{connection.reaches}</td>
      <td className="connections__actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void connectionsActions.showAudiences(name)}
        >
          Lists<span className="visually-hidden"> of {name}</span>
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void connectionsActions.test(name)}>
          Test<span className="visually-hidden"> {name}</span>
        </button>
        {confirming ? (
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              setConfirming(false);
              void connectionsActions.remove(name);
            }}
          >
            Forget {name}
          </button>
        ) : (
          <button type="button" className="button" disabled={busy} onClick={() => setConfirming(true)}>
            Remove<span className="visually-hidden"> {name}</span>
          </button>
        )}
      </td>
    </tr>
  );
}
