import { useState } from 'react';
import type { SyncView } from '../../../../electron/common/contract.ts';
import {
  nothingElseWords,
  readChoiceKey,
  readChoiceWords,
  toolNames,
  type ConnectorKind,
  type PlanChoices,
  verdictsOnly,
} from '../../../../electron/common/connector-schemas.ts';
import { countOf, formatCount } from '../../format.ts';
import { sift } from '../../bridge.ts';
import { SaveWrittenFile } from '../../components/save-written-file.tsx';
import { connectionsActions, useConnectionsStore } from '../../stores/connections-store.ts';

/** Each tool's own step for invalid members, in its terms (HubSpot's unsubscribe is never made). */
const invalidStepWords: Record<NonNullable<SyncView['kind']>, string> = {
  mailchimp: 'Also archive invalid members (Mailchimp keeps them and their history; re-adding restores them)',
  mailman: 'Unsubscribe invalid members instead of turning their delivery off',
  hubspot: 'Also add invalid contacts to the static list “Sift: invalid” (none is unsubscribed)',
};

/** The boxes for what a plan takes besides the verdicts' own changes, each off until ticked. */
export function PlanChoiceBoxes(props: {
  kind: ConnectorKind;
  choices: PlanChoices;
  onChange: (choices: PlanChoices) => void;
}) {
  const box = (choice: keyof PlanChoices, words: string) => (
    <label className="connections__check">
      <input
        type="checkbox"
        checked={props.choices[choice]}
        onChange={(event) => props.onChange({ ...props.choices, [choice]: event.target.checked })}
      />
      {words}
    </label>
  );
  return (
    <>
      {box('withInvalidStep', invalidStepWords[props.kind])}
      {props.kind === 'mailchimp' &&
        box(
          'withScoreFields',
          'Also write each score and its day in the fields SIFTSCORE and SIFTDATE (made where the audience has room; never a field of yours)',
        )}
    </>
  );
}

/** Each recent sync of a list and the one step it waits for: cleaning, a plan, the person's go-ahead. */
export function SyncList() {
  const page = useConnectionsStore((state) => state.page);
  if (!page || page.syncs.length === 0) return null;
  return (
    <>
      <h3 className="connections__subtitle">Syncs</h3>
      {page.syncs.map((sync) => (
        <SyncCard key={sync.id} sync={sync} />
      ))}
    </>
  );
}

function SyncCard({ sync }: { sync: SyncView }) {
  const busy = useConnectionsStore((state) => state.busy);
  const progress = useConnectionsStore((state) => state.progress);
  const tool = sync.kind ? toolNames[sync.kind] : 'the tool';
  const writing = busy && progress?.syncId === sync.id && progress.step === 'writing';
  return (
    <article
      className="connections__sync"
      data-testid={`sync-${sync.id}`}
      aria-label={`${sync.connection}: ${sync.audience}`}
    >
      <strong>
        {sync.connection} · {sync.audience}
      </strong>
      <span className="note">
        Started {new Date(sync.startedAt).toLocaleString()} · {countOf(sync.members, 'member')} read
        {readChoiceKey(sync.readChoice) !== '' && ` · ${readChoiceWords(sync.readChoice)}`}
      </span>
      {sync.phase === 'reading' && (
        <div className="card__actions">
          <span>The read stopped part way.</span>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void connectionsActions.read(sync.connection, sync.audience, undefined, sync.readChoice)}
          >
            Go on reading
          </button>
        </div>
      )}
      {sync.phase === 'cleaning' && (
        <div className="card__actions">
          <span>Clean the list, then see what Sift would change in {tool}.</span>
          {sync.jobId && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void connectionsActions.openList(sync.jobId!)}
            >
              Open the list
            </button>
          )}
          <PlanButton sync={sync} />
        </div>
      )}
      {(sync.phase === 'planned' || sync.phase === 'done') && <Plan sync={sync} tool={tool} />}
      {sync.phase === 'planned' && (
        <div className="card__actions">
          {sync.demo ? (
            <span data-testid="sync-demo">
              Nothing is written to {tool}: these are demo verdicts, which no mail server gave.
            </span>
          ) : (
            <button
              type="button"
              className="button button--primary"
              disabled={busy || sync.plan.length === 0}
              data-testid="write-back"
              onClick={() => void connectionsActions.writeBack(sync.id)}
            >
              Write these changes to {tool}
            </button>
          )}
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void connectionsActions.discard(sync.id)}
          >
            Set aside
          </button>
          {writing && <span role="status">Wrote {formatCount(progress.count)}…</span>}
        </div>
      )}
      {sync.phase === 'done' && (sync.written > 0 || sync.refused > 0) && (
        <p data-testid="sync-outcome">
          Written: {countOf(sync.written, 'change')}.
          {sync.refused > 0 && ` Refused by ${tool}: ${formatCount(sync.refused)} (tried again at the next sync).`}
        </p>
      )}
      {sync.refusedExamples.length > 0 && (
        <ul className="note" data-testid="sync-refused">
          {sync.refusedExamples.map((each) => (
            <li key={each.email}>
              {each.email}: “{each.words}”
            </li>
          ))}
        </ul>
      )}
      {sync.refused > 0 && sync.jobId && (
        <div className="card__actions">
          <SaveWrittenFile
            id="refusals"
            label={`Save ${sync.refused === 1 ? 'the refusal' : `all ${formatCount(sync.refused)} refusals`}, with ${tool}'s words (CSV)…`}
            busyLabel="Writing the refusals…"
            savedLabel="Refusals"
            write={() => sift.connectors.refusals({ syncId: sync.id })}
          />
        </div>
      )}
    </article>
  );
}

/** Plans the cleaned list, with the tool's step for invalid members and its score fields only when ticked. */
function PlanButton({ sync }: { sync: SyncView }) {
  const busy = useConnectionsStore((state) => state.busy);
  const [choices, setChoices] = useState<PlanChoices>(verdictsOnly);
  return (
    <>
      {sync.kind && <PlanChoiceBoxes kind={sync.kind} choices={choices} onChange={setChoices} />}
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        onClick={() => void connectionsActions.plan(sync.id, choices)}
      >
        See the plan
      </button>
    </>
  );
}

function Plan({ sync, tool }: { sync: SyncView; tool: string }) {
  if (sync.plan.length === 0) return <p>No member needs a change in {tool}.</p>;
  return (
    <div data-testid="sync-plan">
      <p>{sync.phase === 'done' ? 'The plan was:' : `The plan: only these changes, in ${tool}.`}</p>
      <ul>
        {sync.plan.map((line) => (
          <li key={line.change}>
            {countOf(line.members, 'member')}: {line.change}
          </li>
        ))}
      </ul>
      <p className="note">{nothingElseWords(sync.withInvalidStep)}</p>
    </div>
  );
}
