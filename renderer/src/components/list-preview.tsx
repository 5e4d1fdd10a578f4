import type { ListPreview as Preview } from '../../../electron/common/contract.ts';
import { describeDelimiter, formatBytes } from '../format.ts';

type ListPreviewProps = { preview: Preview; onClose(): void };

export function ListPreview({ preview, onClose }: ListPreviewProps) {
  const columns = Math.max(preview.headers.length, ...preview.rows.map((row) => row.length));
  const headers = Array.from({ length: columns }, (_, index) => preview.headers[index] || `Column ${index + 1}`);
  return (
    <section className="card" aria-label="List preview">
      <header className="card__header">
        <div>
          <h2 className="card__title" data-testid="preview-file-name">
            {preview.fileName}
          </h2>
          <p className="card__meta">
            {formatBytes(preview.sizeBytes)} · {describeDelimiter(preview.delimiter)} separated · {columns}{' '}
            {columns === 1 ? 'column' : 'columns'} · first {preview.rows.length} {preview.rows.length === 1 ? 'row' : 'rows'}
            {preview.hasMoreRows ? ' shown' : ''}
          </p>
        </div>
        <button type="button" className="button" onClick={onClose}>
          Choose another file
        </button>
      </header>
      <div className="table-scroll">
        <table className="preview-table" data-testid="preview-table">
          <thead>
            <tr>
              <th scope="col" className="preview-table__index">
                #
              </th>
              {headers.map((header, index) => (
                <th scope="col" key={index}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                <td className="preview-table__index">{rowIndex + 1}</td>
                {headers.map((_, cellIndex) => (
                  <td key={cellIndex}>{row[cellIndex] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
