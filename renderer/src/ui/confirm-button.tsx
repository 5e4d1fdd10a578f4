// A button whose action cannot be taken back asks once more: the first click puts the action itself (in red,
// saying what it does) beside a way out, and only that second button acts. Clearing the do-not-mail list,
// the verdict cache, a list's History entry and a source of outcomes all ask this way.
import { useState, type ReactNode } from 'react';

type Action = { label: ReactNode; ariaLabel?: string; testId?: string; disabled?: boolean };

export function ConfirmButton(props: {
  /** The first button: what it would do, with an ellipsis ("Clear the list…"). */
  ask: Action & { className?: string };
  /** The second: the action, said in full ("Forget all 1,204"). */
  confirm: Action;
  /** The way out ("Keep them"). */
  keep: ReactNode;
  /** A question shown while asking, when the action's own words are not enough. */
  question?: ReactNode;
  /** Around the pair while asking (a row of actions, say); a fragment by default. */
  wrap?: (pair: ReactNode) => ReactNode;
  onAsk?: () => void;
  onConfirm: () => void | Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const { ask, confirm } = props;
  if (!asking)
    return (
      <button
        type="button"
        className={ask.className ?? 'button'}
        data-testid={ask.testId}
        aria-label={ask.ariaLabel}
        disabled={ask.disabled}
        onClick={() => {
          props.onAsk?.();
          setAsking(true);
        }}
      >
        {ask.label}
      </button>
    );
  const pair = (
    <>
      {props.question && <span className="confirm-question">{props.question}</span>}
      <button
        type="button"
        className="button button--danger"
        data-testid={confirm.testId}
        aria-label={confirm.ariaLabel}
        disabled={confirm.disabled}
        onClick={() => void Promise.resolve(props.onConfirm()).finally(() => setAsking(false))}
      >
        {confirm.label}
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        {props.keep}
      </button>
    </>
  );
  return props.wrap ? props.wrap(pair) : pair;
}
