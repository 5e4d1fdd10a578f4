import { useStateResetBy } from '../use-state-reset-by.ts';

type SheetPickerProps = {
  sheets: string[];
  current: string;
  busy: boolean;
  onChoose(sheet: string): void;
};

/**
 * A workbook's sheet, chosen and applied only when the person says so (reading a sheet takes a moment).
 * Once a reading ends, the choice shows the sheet read: after a sheet that could not be read, the one before.
 */
export function SheetPicker({ sheets, current, busy, onChoose }: SheetPickerProps) {
  const [pending, setPending] = useStateResetBy(() => current, busy ? '' : current);
  return (
    <form
      className="column-picker"
      onSubmit={(event) => {
        event.preventDefault();
        if (pending !== current) onChoose(pending);
      }}
    >
      <label className="field">
        <span>Sheet</span>
        <select
          data-testid="sheet-select"
          value={pending}
          disabled={busy}
          onChange={(event) => setPending(event.target.value)}
        >
          {sheets.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" data-testid="sheet-apply" disabled={busy || pending === current}>
        Use this sheet
      </button>
    </form>
  );
}
