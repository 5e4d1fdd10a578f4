import { lazy, Suspense, useEffect, useState } from 'react';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import type { OutcomeLedger } from '../../../../electron/common/contract.ts';
import { formatCount } from '../../format.ts';
import { outcomesActions, useOutcomesStore } from '../../stores/outcomes-store.ts';
import { useSettingsStore } from '../../stores/settings-store.ts';
import './what-happened.css';
import { LedgerTable, verdictWordsOf } from '../../components/ledger-table.tsx';
import { BounceMailboxes } from './bounce-mailboxes.tsx';
import { ListFileField } from '../../ui/list-file-field.tsx';
import { SaveWrittenFile } from '../../components/save-written-file.tsx';
import { sift } from '../../bridge.ts';

const BounceBars = lazy(() => import('./bounce-bars.tsx'));

const kindWords: Record<string, string> = {
  imap: 'bounce mailbox',
  file: 'file',
  mailchimp: 'Mailchimp',
  mailman: 'Mailman',
  team: "teammates' reads",
};
/** A source as a person named it: a file by its name, a tool's list as "connection:list". */
const sourceWords = (source: OutcomeLedger['sources'][number]) =>
  `${source.name.replace(/^file:/, '')} (${kindWords[source.kind] ?? source.kind})`;

/**
 * What happened after the sends, beside what Sift said before them: of the addresses Sift checked live, by
 * verdict, how many were sent to (where a tool says so) and how many bounced hard or soft since. Bounces
 * come from a bounce mailbox or a mailing tool (`sift outcomes read`) or a bounce export dropped here.
 */
export default function WhatHappened() {
  const ledger = useOutcomesStore((state) => state.ledger);
  const error = useOutcomesStore((state) => state.error);
  const notice = useOutcomesStore((state) => state.notice);
  const examples = useOutcomesStore((state) => state.examples);
  const account = useSettingsStore((state) => state.account);
  useEffect(() => {
    void outcomesActions.load();
  }, []);
  return (
    <section className="what-happened" aria-labelledby="what-happened-heading" data-testid="what-happened">
      <h3 id="what-happened-heading" className="what-happened__title">
        What happened after the send
      </h3>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {ledger && ledger.sources.length > 0 ? <Ledger ledger={ledger} /> : <NoOutcomes />}
      {ledger?.team && account?.service === 'hosted' && account.teamOutcomes && (
        <TeamShare host={ledger.team} sharedAt={ledger.teamSharedAt} />
      )}
      {/* A live region of its own, not a second status of the screen: History's own status stays one. */}
      <p className="note" aria-live="polite" data-testid="outcomes-notice" hidden={!notice}>
        {notice ?? ''}
      </p>
      {examples && examples.length > 0 && (
        <ul className="what-happened__examples">
          {examples.map((example) => (
            <li key={example}>{example}</li>
          ))}
        </ul>
      )}
      <ImportBounces />
      <BounceMailboxes />
    </section>
  );
}

function NoOutcomes() {
  return (
    <p className="note">
      No bounces read back yet. Bring in a bounce export or connect a bounce mailbox below, or use Read bounces on a
      list of the Mailing tools screen: Sift then shows how its verdicts turned out.
    </p>
  );
}

function Ledger({ ledger }: { ledger: OutcomeLedger }) {
  const rows = ledger.byVerdict.filter((row) => row.checked > 0);
  const { hard, soft, refused } = ledger.unchecked;
  return (
    <>
      <p className="what-happened__sentence" data-testid="ledger-sentence">
        {ledger.sentence}
      </p>
      {rows.length > 0 && (
        <div className="what-happened__body">
          <div className="what-happened__chart" aria-hidden="true" data-testid="bounce-chart">
            <Suspense fallback={<div style={{ height: 36 * rows.length + 10 }} />}>
              <BounceBars
                rows={rows.map((row) => ({
                  label: verdictWordsOf(row.result),
                  rate: row.checked ? (row.hard / row.checked) * 100 : 0,
                  hard: row.hard,
                }))}
              />
            </Suspense>
          </div>
          <LedgerTable
            rows={rows}
            caption="Addresses Sift checked live, and what happened to them since"
            sendsKnown={ledger.sendsKnown}
            className="data-table what-happened__table"
            testId="ledger-table"
          />
        </div>
      )}
      {hard + soft + refused > 0 && (
        <p className="note">
          Addresses Sift never checked live: {formatCount(hard)} bounced hard, {formatCount(soft)} soft,{' '}
          {formatCount(refused)} blamed the sender. Hard bounces are on the do-not-mail list all the same.
        </p>
      )}
      <ul className="plain-list what-happened__sources" aria-label="Where the outcomes came from">
        {ledger.sources.map((source) => (
          <OutcomeSource key={source.name} source={source} />
        ))}
      </ul>
      <p className="card__meta">
        {ledger.sendsKnown
          ? 'Rates are of the addresses checked.'
          : 'Who was sent to is not known from a bounce mailbox or file: rates are of the addresses checked.'}
      </p>
      <div className="card__actions">
        <SaveWrittenFile
          id="outcomes"
          label="Save every outcome, with what Sift had said (CSV)…"
          busyLabel="Writing the outcomes…"
          savedLabel="Outcomes"
          write={() => sift.outcomes.export()}
        />
      </div>
    </>
  );
}

/** A source of outcomes, which a person may forget with what its bounces put on the do-not-mail list. */
function OutcomeSource({ source }: { source: OutcomeLedger['sources'][number] }) {
  const busy = useOutcomesStore((state) => state.busy);
  const words = sourceWords(source);
  return (
    <li data-testid="outcome-source">
      <span>{words}</span>
      <ConfirmButton
        ask={{ label: 'Forget…', ariaLabel: `Forget ${words}…`, disabled: busy }}
        question="Forget everything read from it, and the do-not-mail entries its bounces made?"
        confirm={{ label: 'Forget it', testId: 'confirm-forget-source', disabled: busy }}
        keep="Keep it"
        onConfirm={() => outcomesActions.forget(source.name, words)}
      />
    </li>
  );
}

/** The hosted service in use is the team's: what was read here goes there, and what teammates read comes back. */
function TeamShare({ host, sharedAt }: { host: string; sharedAt: number | undefined }) {
  const busy = useOutcomesStore((state) => state.busy);
  return (
    <div className="card__actions">
      <button type="button" className="button" disabled={busy} onClick={() => void outcomesActions.share(host)}>
        Share outcomes with the team at {host}
      </button>
      <span className="note" data-testid="team-shared">
        {sharedAt
          ? `Last shared ${new Date(sharedAt).toLocaleString()}. What is read, brought in or forgotten here is shared by itself from now on.`
          : 'Sends what was read here, and brings back what teammates read. Nothing is shared until you ask once.'}
      </span>
    </div>
  );
}

function ImportBounces() {
  const busy = useOutcomesStore((state) => state.busy);
  const [kind, setKind] = useState<'' | 'hard' | 'soft'>('');
  return (
    <div className="what-happened__import">
      <ListFileField
        label="A bounce or suppression export (CSV, TSV or Excel) from your sending service"
        testId="outcomes-file"
        disabled={busy}
        onFile={(file) => void outcomesActions.importFile(file, kind || undefined)}
      />
      <label className="form-field">
        <span>When the file does not say which rows are hard or soft</span>
        <select value={kind} onChange={(event) => setKind(event.target.value as '' | 'hard' | 'soft')} disabled={busy}>
          <option value="">Ask me (refuse the file)</option>
          <option value="hard">Every row is a hard bounce</option>
          <option value="soft">Every row is a soft bounce</option>
        </select>
      </label>
    </div>
  );
}
