import { useEffect, useState } from 'react';
import type { SingleCheck } from '../../../../electron/common/contract.ts';
import { verdictNote, verdictWord } from '../../../../electron/common/reason-words.ts';
import { checkActions, useCheckStore } from '../../stores/check-store.ts';
import { settingsActions } from '../../stores/settings-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';
import './check-screen.css';

function flagsOf(check: SingleCheck): string[] {
  return [
    ...(check.role ? ['role address'] : []),
    ...(check.disposable ? ['disposable inbox'] : []),
    ...(check.suggestion ? [`did you mean ${check.suggestion}?`] : []),
  ];
}

function billing(check: SingleCheck): string {
  if (check.local) return 'Answered by Sift without asking the service: not charged.';
  return check.billed ? 'One credit was spent.' : 'Not charged.';
}

/** One address, checked now: for when a person waits for the answer. */
export function CheckScreen() {
  const latest = useCheckStore((state) => state.latest);
  const recent = useCheckStore((state) => state.recent);
  const busy = useCheckStore((state) => state.busy);
  const error = useCheckStore((state) => state.error);
  const heading = useFocusHeading<HTMLHeadingElement>('check');
  const [email, setEmail] = useState('');

  useEffect(() => {
    void checkActions.loadRecent();
  }, []);

  return (
    <section className="card card--padded check" aria-labelledby="check-heading">
      <h2 className="card__title" id="check-heading" tabIndex={-1} ref={heading}>
        Check one address
      </h2>
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void checkActions.verify(email).then(() => settingsActions.refreshAccount());
        }}
      >
        <label className="form-field check__field">
          <span>Email address</span>
          <input
            type="text"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="someone@example.com"
          />
        </label>
        <button type="submit" className="button button--primary" disabled={busy || email.trim() === ''}>
          {busy ? 'Checking…' : 'Check'}
        </button>
      </form>
      <div role="status" className="check__answer" data-testid="check-answer">
        {latest && (
          <>
            <p className={`check__verdict check__verdict--${latest.result}`}>
              {latest.email}: {latest.demo ? 'Demo verdict ' : ''}
              {verdictWord(latest.result)}
            </p>
            {(latest.reason || latest.demo) && <p>{verdictNote(latest, latest.demo === true)}</p>}
            {flagsOf(latest).length > 0 && <p>Also: {flagsOf(latest).join('; ')}</p>}
            <p className="note">{billing(latest)}</p>
          </>
        )}
      </div>
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {recent.length > 0 && (
        <>
          <h3 className="section-title">Recent checks</h3>
          <ul className="plain-list" data-testid="recent-checks">
            {recent.map((check) => (
              <li key={`${check.checkedAt}-${check.email}`}>
                <span className="check__recent-email">{check.email}</span>{' '}
                <span className={`check__verdict--${check.result}`}>
                  {check.demo ? 'Demo: ' : ''}
                  {verdictWord(check.result)}
                </span>
                <span className="note"> · {new Date(check.checkedAt).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
