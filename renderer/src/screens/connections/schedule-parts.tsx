import { useState } from 'react';
import {
  readChoiceKey,
  readChoiceWords,
  scheduleDays,
  subscribedOnly,
  type ConnectorKind,
  type PlanChoices,
  type ReadChoice,
  verdictsOnly,
} from '../../../../electron/common/connector-schemas.ts';
import { connectionsActions, useConnectionsStore } from '../../stores/connections-store.ts';
import { PlanChoiceBoxes } from './sync-list.tsx';
import { ReadChoiceFields } from './read-choice-fields.tsx';

const periodWords: Record<(typeof scheduleDays)[number], string> = {
  1: 'every day',
  7: 'every week',
  30: 'every month',
};

/** A schedule's step for invalid members, in a few words of its tool's. */
const stepShortWords: Record<ConnectorKind, string> = {
  mailchimp: 'invalid members archived',
  mailman: 'invalid members unsubscribed',
  hubspot: 'invalid contacts listed in “Sift: invalid”',
};

/**
 * A list's schedule set from its row: how often, whether the plan is written back without asking, and the
 * tool's step for invalid members (off unless ticked).
 */
export function ScheduleForm(props: {
  name: string;
  kind: ConnectorKind | undefined;
  audience: string;
  listName: string;
  onDone: () => void;
}) {
  const busy = useConnectionsStore((state) => state.busy);
  const [everyDays, setEveryDays] = useState<(typeof scheduleDays)[number]>(7);
  const [writeBack, setWriteBack] = useState(false);
  const [choices, setChoices] = useState<PlanChoices>(verdictsOnly);
  const [readChoice, setReadChoice] = useState<ReadChoice>(subscribedOnly);
  return (
    <form
      className="connections__schedule-form connections__choice-form"
      aria-label={`Schedule ${props.listName}`}
      onSubmit={(event) => {
        event.preventDefault();
        void connectionsActions
          .schedule(props.name, props.audience, everyDays, { writeBack, ...choices }, readChoice)
          .then((done) => done && props.onDone());
      }}
    >
      <label className="form-field">
        <span>Sync {props.listName} again</span>
        <select value={everyDays} onChange={(event) => setEveryDays(Number(event.target.value) as typeof everyDays)}>
          {scheduleDays.map((days) => (
            <option key={days} value={days}>
              {periodWords[days]}
            </option>
          ))}
        </select>
      </label>
      <label className="connections__check">
        <input type="checkbox" checked={writeBack} onChange={(event) => setWriteBack(event.target.checked)} />
        Write each plan back without asking (otherwise plans wait here for you)
      </label>
      {props.kind && <PlanChoiceBoxes kind={props.kind} choices={choices} onChange={setChoices} />}
      {props.kind === 'mailchimp' && (
        <ReadChoiceFields
          name={props.name}
          audience={props.audience}
          choice={readChoice}
          onChange={(next) => setReadChoice(next)}
        />
      )}
      <div className="card__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Save schedule
        </button>
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Every schedule: when it runs next, what its last run did, and stopping it. */
export function ScheduleList() {
  const page = useConnectionsStore((state) => state.page);
  const busy = useConnectionsStore((state) => state.busy);
  if (!page || page.schedules.length === 0) return null;
  const stepOf = (name: string) => {
    const kind = page.connections.find((connection) => connection.name === name)?.kind;
    return kind ? stepShortWords[kind] : 'with the step for invalid members';
  };
  return (
    <>
      <h3 className="connections__subtitle">Schedules</h3>
      <ul className="connections__schedules" data-testid="schedules">
        {page.schedules.map((each) => (
          <li key={`${each.connection}\n${each.audience}`}>
            <span>
              <strong>
                {each.connection} · {each.audience}
              </strong>
              : {periodWords[each.everyDays as (typeof scheduleDays)[number]] ?? `every ${each.everyDays} days`},{' '}
              {each.writeBack ? 'written back' : 'plans only'}
              {each.withInvalidStep && `, ${stepOf(each.connection)}`}
              {each.withScoreFields && ', scores in SIFTSCORE and SIFTDATE'}
              {readChoiceKey(each.readChoice) !== '' && `, reading its ${readChoiceWords(each.readChoice)}`}; next{' '}
              {new Date(each.nextDue).toLocaleString()}
              {each.lastRun !== null && `; last ${new Date(each.lastRun).toLocaleString()}: ${each.lastOutcome}`}
              {!each.byApp && ' (it names its own service: `sift sync --due` runs it)'}
            </span>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void connectionsActions.schedule(each.connection, each.audience, null)}
            >
              Stop<span className="visually-hidden"> syncing {each.audience} on a schedule</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
