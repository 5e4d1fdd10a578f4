// A field that picks a list file: a CSV, TSV or text file, or an Excel workbook, each read the same way in
// main. The input is cleared once its file is handed on, so the same file can be picked again.
import type { ChangeEvent } from 'react';

/** What a list file may be, as a file input's `accept` names it. */
export const listFileTypes = '.csv,.tsv,.txt,.xlsx,text/csv,text/plain';

/** A file input's change handler: the picked file to `onFile`, the input cleared. */
export const onPickedFile = (onFile: (file: File) => void) => (event: ChangeEvent<HTMLInputElement>) => {
  const file = event.target.files?.[0];
  event.target.value = '';
  if (file) onFile(file);
};

export function ListFileField({
  label,
  testId,
  disabled,
  onFile,
}: {
  label: string;
  testId: string;
  disabled: boolean;
  onFile: (file: File) => void;
}) {
  return (
    <label className="form-field">
      <span>{label}</span>
      <input
        type="file"
        data-testid={testId}
        accept={listFileTypes}
        disabled={disabled}
        onChange={onPickedFile(onFile)}
      />
    </label>
  );
}
