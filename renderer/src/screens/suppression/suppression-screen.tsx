import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import type { SuppressionEntryView } from '../../../../electron/common/contract.ts';
import { countOf, formatCount } from '../../format.ts';
import { suppressionActions, suppressionPageSize, useSuppressionStore } from '../../stores/suppression-store.ts';
import { ChangeNotices } from '../../ui/change-notices.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { useFocusHeading } from '../../use-focus-heading.ts';
import { ListFileField } from '../../ui/list-file-field.tsx';
import './suppression-screen.css';

/** The do-not-mail list: what is on it, adding to it (typed or from a file), searching and removing. */
export function SuppressionScreen() {
  const page = useSuppressionStore((state) => state.page);
  const notice = useSuppressionStore((state) => state.notice);
  const error = useSuppressionStore((state) => state.error);
  const refused = useSuppressionStore((state) => state.refused);
  const heading = useFocusHeading<HTMLHeadingElement>('suppression');

  useEffect(() => {
    void suppressionActions.load('', 0);
  }, []);

  return (
    <section className="card card--padded suppression" aria-labelledby="suppression-heading">
      <h2 className="card__title" id="suppression-heading" tabIndex={-1} ref={heading}>
        Do-not-mail list
      </h2>
      <p className="note" data-testid="suppression-counts">
        {page
          ? `${countOf(page.addresses, 'address', 'addresses')} and ${countOf(page.domains, 'domain')} are never sent, billed or kept in a cleaned list. ` +
            'A domain covers its subdomains. Lists read from now on are checked against it; a list waiting to be cleaned is read again before it is sent.'
          : ''}
      </p>
      <ChangeNotices prefix="suppression" notice={notice} refused={refused} error={error} />
      <div className="suppression__add">
        <AddByHand />
        <AddFromFile />
      </div>
      <EntryTable />
    </section>
  );
}

function AddByHand() {
  const busy = useSuppressionStore((state) => state.busy);
  const [text, setText] = useState('');
  return (
    <form
      className="suppression__form"
      onSubmit={(event) => {
        event.preventDefault();
        void suppressionActions.add(text).then((done) => done && setText(''));
      }}
    >
      <label className="form-field">
        <span>Addresses and domains, one per line</span>
        <textarea
          rows={4}
          value={text}
          placeholder={'unsubscribed@example.com\ncompetitor.com'}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={busy || text.trim() === ''}>
        Add to the list
      </button>
    </form>
  );
}

function AddFromFile() {
  const busy = useSuppressionStore((state) => state.busy);
  return (
    <div className="suppression__file">
      <ListFileField
        label="Or a file: CSV, TSV, text (one per line) or Excel (.xlsx)"
        testId="suppression-file"
        disabled={busy}
        onFile={(file) => void suppressionActions.importFile(file)}
      />
    </div>
  );
}

function EntryTable() {
  const page = useSuppressionStore((state) => state.page);
  const offset = useSuppressionStore((state) => state.offset);
  const busy = useSuppressionStore((state) => state.busy);
  const [search, setSearch] = useState('');
  if (!page) return null;
  const empty = page.addresses + page.domains === 0;
  return (
    <>
      <form
        className="suppression__search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void suppressionActions.load(search, 0);
        }}
      >
        <label className="form-field">
          <span>Search</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} disabled={empty} />
        </label>
        <button type="submit" className="button" disabled={empty}>
          Find
        </button>
        <span className="note" data-testid="suppression-shown">
          {empty
            ? 'Nothing on the list yet.'
            : `${formatCount(page.total)} shown${page.total > suppressionPageSize ? `, ${formatCount(offset + 1)}–${formatCount(offset + page.entries.length)} here` : ''}`}
        </span>
      </form>
      {page.entries.length > 0 && (
        <table className="data-table" data-testid="suppression-table">
          <caption className="visually-hidden">The do-not-mail list, newest first</caption>
          <TableHead columns={['Address or domain', 'Kind', 'Added', 'From']} />
          <tbody>
            {page.entries.map((entry) => (
              <EntryRow key={entry.value} entry={entry} busy={busy} />
            ))}
          </tbody>
        </table>
      )}
      <footer className="card__actions suppression__footer">
        {offset > 0 && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void suppressionActions.load(undefined, Math.max(0, offset - suppressionPageSize))}
          >
            Newer
          </button>
        )}
        {offset + page.entries.length < page.total && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void suppressionActions.load(undefined, offset + suppressionPageSize)}
          >
            Older
          </button>
        )}
        {!empty && (
          <ConfirmButton
            ask={{ label: 'Clear the list…', testId: 'clear-suppression' }}
            confirm={{
              label: `Forget all ${formatCount(page.addresses + page.domains)}`,
              testId: 'confirm-clear-suppression',
            }}
            keep="Keep them"
            onConfirm={() => suppressionActions.clear()}
          />
        )}
      </footer>
    </>
  );
}

function EntryRow({ entry, busy }: { entry: SuppressionEntryView; busy: boolean }) {
  return (
    <tr>
      <td className="suppression__value">{entry.value}</td>
      <td>{entry.kind === 'domain' ? 'Domain' : 'Address'}</td>
      <td>{new Date(entry.addedAt).toLocaleDateString()}</td>
      <td>{entry.source}</td>
      <td className="suppression__remove">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-label={`Remove ${entry.value}`}
          onClick={() => void suppressionActions.remove(entry.value)}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}
