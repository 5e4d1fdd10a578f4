import type { ListPreview as Preview } from '../../../electron/common/contract.ts';
import { describeDelimiter, formatBytes } from '../format.ts';
import './list-preview.css';

type ListPreviewProps = { preview: Preview; highlightColumn?: number };

export function ListPreview({ preview, highlightColumn }: ListPreviewProps) {
  const columns = Math.max(preview.headers.length, ...preview.rows.map((row) => row.length));
  const headers = Array.from({ length: columns }, (_, index) => preview.headers[index] || `Column ${index + 1}`);
  return (
    <section className="preview" aria-label="List preview">
      <p className="card__meta preview__meta">
        {formatBytes(preview.sizeBytes)} ·{' '}
        {preview.sheet
          ? `Excel workbook, sheet “${preview.sheet}”`
          : `${describeDelimiter(preview.delimiter)} separated`}{' '}
        · {columns} {columns === 1 ? 'column' : 'columns'} · first {preview.rows.length}{' '}
        {preview.rows.length === 1 ? 'row' : 'rows'}
        {preview.hasMoreRows ? ' shown' : ''}
      </p>
      <div className="table-scroll">
        <table className="preview-table" data-testid="preview-table">
          <thead>
            <tr>
              <th scope="col" className="preview-table__index">
                #
              </th>
              {headers.map((header, index) => (
                <th scope="col" key={index} className={index === highlightColumn ? 'is-email' : undefined}>
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
                  <td key={cellIndex} className={cellIndex === highlightColumn ? 'is-email' : undefined}>
                    {row[cellIndex] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
