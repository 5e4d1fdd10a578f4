import { useState } from 'react';
import { subscribedOnly, type AudienceView, type ReadChoice } from '../../../../electron/common/connector-schemas.ts';
import { formatCount } from '../../format.ts';
import { connectionsActions, useConnectionsStore } from '../../stores/connections-store.ts';
import { TableHead } from '../../ui/table-head.tsx';
import { ReadChoiceFields } from './read-choice-fields.tsx';
import { ScheduleForm } from './schedule-parts.tsx';

/** A connection's lists, each read and cleaned, or scheduled; Mailchimp's with a choice of members. */
export function AudienceTable() {
  const audiences = useConnectionsStore((state) => state.audiences);
  const busy = useConnectionsStore((state) => state.busy);
  const progress = useConnectionsStore((state) => state.progress);
  const page = useConnectionsStore((state) => state.page);
  const [open, setOpen] = useState<{ form: 'schedule' | 'members'; list: string } | undefined>();
  if (!audiences) return null;
  const kind = page?.connections.find((connection) => connection.name === audiences.name)?.kind;
  const chosen = audiences.lists.find((list) => list.id === open?.list);
  return (
    <>
      <h3 className="connections__subtitle">Lists of {audiences.name}</h3>
      {progress?.step === 'reading' && busy && (
        <p className="note" role="status">
          Read {formatCount(progress.count)} members…
        </p>
      )}
      {audiences.lists.length === 0 ? (
        <p className="note">This connection has no lists.</p>
      ) : (
        <table className="data-table" data-testid="audiences-table">
          <caption className="visually-hidden">Lists of {audiences.name}</caption>
          <TableHead columns={['List', 'Id', 'Members']} />
          <tbody>
            {audiences.lists.map((list) => (
              <tr key={list.id}>
                <td>{list.name}</td>
                <td className="suppression__value">{list.id}</td>
                <td>{formatCount(list.size)}</td>
                <td className="connections__actions">
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy}
                    onClick={() => void connectionsActions.read(audiences.name, list.id, list.name)}
                  >
                    Read and clean<span className="visually-hidden"> {list.name}</span>
                  </button>
                  {kind === 'mailchimp' && (
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => setOpen({ form: 'members', list: list.id })}
                    >
                      Choose members<span className="visually-hidden"> of {list.name}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => setOpen({ form: 'schedule', list: list.id })}
                  >
                    Schedule<span className="visually-hidden"> {list.name}</span>
                  </button>
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    title="What bounced since the last read: hard bounces go on the do-not-mail list"
                    onClick={() => void connectionsActions.bounces(audiences.name, list.id, list.name)}
                  >
                    Read bounces<span className="visually-hidden"> of {list.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chosen && open?.form === 'schedule' && (
        <ScheduleForm
          name={audiences.name}
          kind={kind}
          audience={chosen.id}
          listName={chosen.name}
          onDone={() => setOpen(undefined)}
        />
      )}
      {chosen && open?.form === 'members' && (
        <ReadChoiceForm name={audiences.name} list={chosen} onDone={() => setOpen(undefined)} />
      )}
    </>
  );
}

/**
 * Which of a Mailchimp audience's members to read: its subscribed ones, pending and transactional ones only
 * when ticked, and one segment or tag if chosen (unsubscribed, cleaned and archived members never).
 */
function ReadChoiceForm(props: { name: string; list: AudienceView; onDone: () => void }) {
  const busy = useConnectionsStore((state) => state.busy);
  const [choice, setChoice] = useState<ReadChoice>(subscribedOnly);
  const [segmentName, setSegmentName] = useState<string | undefined>();
  return (
    <form
      className="connections__schedule-form connections__choice-form"
      aria-label={`Members of ${props.list.name} to read`}
      onSubmit={(event) => {
        event.preventDefault();
        const listName = segmentName ? `${props.list.name} · ${segmentName}` : props.list.name;
        void connectionsActions.read(props.name, props.list.id, listName, choice).then(props.onDone);
      }}
    >
      <span>Read the subscribed members of {props.list.name}, and:</span>
      <ReadChoiceFields
        name={props.name}
        audience={props.list.id}
        choice={choice}
        onChange={(next, segment) => {
          setChoice(next);
          setSegmentName(segment?.name);
        }}
      />
      <div className="card__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Read and clean
        </button>
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
