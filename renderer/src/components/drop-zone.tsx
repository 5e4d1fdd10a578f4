import { useRef, useState, type DragEvent } from 'react';
import { listFileTypes, onPickedFile } from '../ui/list-file-field.tsx';
import './drop-zone.css';

type DropZoneProps = { busy: boolean; onFile(file: File): void };

export function DropZone({ busy, onFile }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <section
      className={`drop-zone${dragging ? ' drop-zone--active' : ''}`}
      aria-label="Drop a CSV list"
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="drop-zone__icon" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="40" height="40" fill="none" stroke="currentColor" strokeWidth="1.6">
          <path d="M12 16V4m0 0-4 4m4-4 4 4" strokeLinecap="round" strokeLinejoin="round" />
          <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" strokeLinecap="round" />
        </svg>
      </div>
      <h2 className="drop-zone__title">{busy ? 'Reading your list…' : 'Drop a CSV list here'}</h2>
      <p className="drop-zone__hint">
        Comma, semicolon or tab separated, one address per line, or an Excel workbook (.xlsx).
      </p>
      <button type="button" className="button button--primary" disabled={busy} onClick={() => input.current?.click()}>
        Choose a file
      </button>
      <input
        ref={input}
        className="visually-hidden"
        aria-label="Choose a CSV list"
        // The "Choose a file" button opens it; one tab stop is enough.
        tabIndex={-1}
        type="file"
        accept={listFileTypes}
        data-testid="file-input"
        onChange={onPickedFile(onFile)}
      />
    </section>
  );
}
