import { useStateResetBy } from '../use-state-reset-by.ts';

type ColumnPickerProps = {
  /** Column names in order (made-up names for a file without a header row). */
  columns: string[];
  /** The column in use, 0-based; null when none was found. */
  current: number | null;
  busy: boolean;
  /** The chosen column as a 1-based number, as main takes it. */
  onChoose(column: string): void;
};

/**
 * The email column, chosen with the keyboard or the mouse and applied only when the person says so:
 * arrowing through the options must not read the whole list again at every step.
 */
export function ColumnPicker({ columns, current, busy, onChoose }: ColumnPickerProps) {
  const currentValue = current === null ? '' : String(current + 1);
  const [pending, setPending] = useStateResetBy(() => currentValue, currentValue);
  const changed = pending !== '' && pending !== currentValue;
  return (
    <form
      className="column-picker"
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) onChoose(pending);
      }}
    >
      <label className="field">
        <span>Email column</span>
        <select
          data-testid="column-select"
          value={pending}
          disabled={busy}
          onChange={(event) => setPending(event.target.value)}
        >
          {current === null && (
            <option value="" disabled>
              Choose a column
            </option>
          )}
          {columns.map((name, index) => (
            <option key={index} value={String(index + 1)}>
              {name || `Column ${index + 1}`}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" data-testid="column-apply" disabled={busy || !changed}>
        Use this column
      </button>
    </form>
  );
}
