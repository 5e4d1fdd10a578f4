import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ExplorerFilter, ExplorerRow, JobOverview } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';
import { formatCount } from '../format.ts';
import { filterWords, notesOf, scoreOfRow, sortWords } from './explorer-words.ts';
import type { ExplorerSort } from '../../../electron/common/list-schemas.ts';
import { verdictWord } from '../../../electron/common/reason-words.ts';
import { RowReasons, TypoActions } from './explorer-row-parts.tsx';
import './row-explorer.css';

const pageSize = 200;
const rowHeight = 34;

/** Every row of the list with its verdict, read from main a page at a time as the person scrolls. */
export function RowExplorer({ job }: { job: JobOverview }) {
  const [filter, setFilter] = useState<ExplorerFilter>('all');
  const [sort, setSort] = useState<ExplorerSort>('row');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [total, setTotal] = useState<number>();
  const [pages, setPages] = useState(new Map<number, ExplorerRow[]>());
  const [error, setError] = useState<string>();
  const asked = useRef(new Set<number>());
  /**
   * The query the rows on screen answer. A page asked for under an earlier filter or search may come back
   * after the new query's first page: it is dropped, or the list would show rows the filter leaves out.
   */
  const shownQuery = useRef('');
  const scroller = useRef<HTMLDivElement>(null);
  /** The row the keyboard is on (one tab stop for the whole grid; the arrow keys move it). */
  const [activeRow, setActiveRow] = useState(0);
  const focusAfterMove = useRef(false);

  const query = JSON.stringify([job.jobId, filter, search, sort]);
  const load = useCallback(
    async (pageIndex: number) => {
      if (asked.current.has(pageIndex)) return;
      const askedFor = asked.current;
      askedFor.add(pageIndex);
      try {
        const page = await sift.jobs.rows({
          jobId: job.jobId,
          offset: pageIndex * pageSize,
          limit: pageSize,
          filter,
          search,
          sort,
        });
        if (shownQuery.current !== query) return;
        setTotal(page.total);
        setPages((current) => new Map(current).set(pageIndex, page.rows));
      } catch (caught) {
        askedFor.delete(pageIndex);
        if (shownQuery.current === query) setError(errorMessage(caught));
      }
    },
    [job.jobId, filter, search, sort, query],
  );

  useEffect(() => {
    shownQuery.current = query;
    asked.current = new Set();
    setPages(new Map());
    setTotal(undefined);
    setError(undefined);
    setActiveRow(0);
    scroller.current?.scrollTo({ top: 0 });
    void load(0);
  }, [load, query]);

  // TanStack Virtual hands back functions React Compiler cannot memoise; this component is not compiled.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    for (const item of items) void load(Math.floor(item.index / pageSize));
  }, [items, load]);
  // A move by keyboard focuses the row it lands on once the virtualiser has drawn it.
  useEffect(() => {
    if (!focusAfterMove.current) return;
    const target = scroller.current?.querySelector<HTMLElement>(`[data-index="${activeRow}"]`);
    if (!target) return;
    focusAfterMove.current = false;
    target.focus();
  }, [activeRow, items]);

  /** Up and down a row, a page, or to either end, as in a spreadsheet. */
  const moveByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = (total ?? 0) - 1;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? rowHeight) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: activeRow + 1,
      ArrowUp: activeRow - 1,
      PageDown: activeRow + page,
      PageUp: activeRow - page,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined || last < 0 || (event.target as HTMLElement).closest('button')) return;
    event.preventDefault();
    const row = Math.min(last, Math.max(0, next));
    focusAfterMove.current = true;
    setActiveRow(row);
    virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  /** Accepts or takes back a typo suggestion, for this address or its whole domain, then reads the rows again. */
  const accept = async (target: { addressId: number } | { domain: string }, yes: boolean) => {
    try {
      await sift.jobs.acceptSuggestions({ jobId: job.jobId, target, accept: yes });
      asked.current = new Set();
      setPages(new Map());
      for (const item of virtualizer.getVirtualItems()) void load(Math.floor(item.index / pageSize));
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  const headers = job.headers;
  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
  };
  return (
    <section
      className="explorer"
      aria-labelledby="explorer-heading"
      style={{ ['--explorer-columns' as string]: explorerColumns(headers.length, job.columnIndex) }}
    >
      <h3 id="explorer-heading" className="section-title">
        Rows
      </h3>
      <form className="explorer__controls" onSubmit={applySearch}>
        <label className="field">
          <span>Show</span>
          <select value={filter} onChange={(event) => setFilter(event.target.value as ExplorerFilter)}>
            {Object.entries(filterWords).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Order</span>
          <select
            value={sort}
            data-testid="explorer-sort"
            onChange={(event) => setSort(event.target.value as ExplorerSort)}
          >
            {Object.entries(sortWords).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Search</span>
          <input type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <button type="submit" className="button">
          Find
        </button>
        <span className="note" role="status" data-testid="explorer-count">
          {total === undefined ? 'Reading…' : `${formatCount(total)} row${total === 1 ? '' : 's'}`}
        </span>
      </form>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {/* An ARIA grid: a screen reader hears the columns and where it is among every row, though only
          the rows in view exist; the rows not yet read say so. */}
      <div
        role="grid"
        aria-label="Rows of the list"
        aria-readonly="true"
        aria-rowcount={(total ?? 0) + 1}
        aria-colcount={headers.length + 4}
        // One tab stop inside (the active row); the grid itself is focusable only from script.
        tabIndex={-1}
        onKeyDown={moveByKey}
      >
        <div role="rowgroup">
          <div className="explorer__head" role="row" aria-rowindex={1}>
            <span role="columnheader">#</span>
            {headers.map((header, index) => (
              <span role="columnheader" key={index}>
                {header}
              </span>
            ))}
            <span role="columnheader">Verdict</span>
            <span role="columnheader">Score</span>
            <span role="columnheader">Notes</span>
          </div>
        </div>
        <div className="explorer__scroll" ref={scroller} data-testid="explorer" role="rowgroup">
          <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = pages.get(Math.floor(item.index / pageSize))?.[item.index % pageSize];
              return (
                <div
                  key={item.key}
                  className="explorer__row"
                  data-testid="explorer-row"
                  data-index={item.index}
                  role="row"
                  aria-rowindex={item.index + 2}
                  tabIndex={item.index === activeRow ? 0 : -1}
                  onFocus={() => setActiveRow(item.index)}
                  style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}
                >
                  {row ? (
                    <>
                      <span role="gridcell">{row.row}</span>
                      {headers.map((_, index) => (
                        <span role="gridcell" key={index}>
                          {row.cells[index] ?? ''}
                        </span>
                      ))}
                      <span role="gridcell" className={`explorer__verdict--${row.result}`}>
                        {verdictWord(row.result)}
                      </span>
                      <span role="gridcell" className="explorer__score">
                        {scoreOfRow(row)?.score ?? ''}
                      </span>
                      <span role="gridcell" className="explorer__notes">
                        {notesOf(row, job.demo)}
                        {row.suggestion && !row.duplicate && (
                          <TypoActions
                            row={row}
                            typed={row.cells[job.columnIndex] ?? ''}
                            onAccept={(target, yes) => void accept(target, yes)}
                          />
                        )}
                      </span>
                    </>
                  ) : (
                    <span role="gridcell" aria-colspan={headers.length + 4} className="note">
                      Reading…
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <RowReasons row={pages.get(Math.floor(activeRow / pageSize))?.[activeRow % pageSize]} />
    </section>
  );
}

/**
 * The explorer's columns: the row number, each of the list's columns, the verdict, the score and the notes. The
 * address, what a person searches for and reads first, gets the most room (an address of 40 characters
 * whole); the notes give way to it. Every row is a grid of its own, so the widths are fixed, not each row's.
 */
function explorerColumns(count: number, addressColumn: number): string {
  const cells = Array.from({ length: count }, (_, i) =>
    i === addressColumn ? 'minmax(20rem, 2fr)' : 'minmax(6rem, 1fr)',
  );
  return `4rem ${cells.join(' ')} 6rem 3.5rem minmax(10rem, 16rem)`;
}
