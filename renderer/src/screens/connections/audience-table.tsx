import { useEffect, useState } from 'react';
import {
  extraStatuses,
  subscribedOnly,
  type AudienceView,
  type ReadChoice,
  type SegmentView,
} from '../../../../electron/common/connector-schemas.ts';
import { formatCount } from '../../format.ts';
import { connectionsActions, useConnectionsStore } from '../../stores/connections-store.ts';
import { TableHead } from '../../ui/table-head.tsx';
import { ScheduleForm } from './schedule-parts.tsx';

/** Mailchimp's statuses read only on request, as a person knows them. */
const statusWords: Record<(typeof extraStatuses)[number], string> = {
  pending: 'Pending members too (signed up, not yet confirmed)',
  transactional: 'Transactional members too (they get only receipts and other transactional email)',
};

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
  const [segments, setSegments] = useState<SegmentView[] | undefined>();
  useEffect(() => {
    let current = true;
    void connectionsActions.segments(props.name, props.list.id).then((found) => current && setSegments(found));
    return () => {
      current = false;
    };
  }, [props.name, props.list.id]);
  const segment = segments?.find((each) => each.id === choice.segment);
  return (
    <form
      className="connections__schedule-form connections__choice-form"
      aria-label={`Members of ${props.list.name} to read`}
      onSubmit={(event) => {
        event.preventDefault();
        const listName = segment ? `${props.list.name} · ${segment.name}` : props.list.name;
        void connectionsActions.read(props.name, props.list.id, listName, choice).then(props.onDone);
      }}
    >
      <span>Read the subscribed members of {props.list.name}, and:</span>
      {extraStatuses.map((status) => (
        <label key={status} className="connections__check">
          <input
            type="checkbox"
            checked={choice.include.includes(status)}
            onChange={(event) =>
              setChoice({
                ...choice,
                include: event.target.checked
                  ? [...choice.include, status]
                  : choice.include.filter((each) => each !== status),
              })
            }
          />
          {statusWords[status]}
        </label>
      ))}
      <label className="form-field">
        <span>Only the members of</span>
        <select
          value={choice.segment ?? ''}
          disabled={segments === undefined}
          onChange={(event) => setChoice({ ...choice, segment: event.target.value || null })}
        >
          <option value="">{segments === undefined ? 'Reading its segments and tags…' : 'The whole list'}</option>
          {segments?.map((each) => (
            <option key={each.id} value={each.id}>
              {each.name} ({each.kind}, {formatCount(each.size)})
            </option>
          ))}
        </select>
      </label>
      <span className="note">Unsubscribed, cleaned and archived members are never read.</span>
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
