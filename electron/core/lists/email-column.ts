// Which column holds the addresses, and whether the first row is a header: from the header's words
// (in several languages) and from what the cells look like.
import { withoutControls } from '../../common/terminal-text.ts';
import { AppError } from '../../common/app-error.ts';

export type ListLayout = { hasHeader: boolean; columnIndex: number; headers: string[]; width: number };

const looksLikeEmail = /^\s*(?:mailto:)?[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+\s*$|<[^\s@<>"]+@[^\s@<>"]+>/i;

/** Header words for an address column, already lower-cased and without spaces, dashes, dots or underscores. */
const emailHeaderWords = new Set([
  'email',
  'emails',
  'mail',
  'emailaddress',
  'mailaddress',
  'emailadresse',
  'eaddress',
  'courriel',
  'adressecourriel',
  'adresseemail',
  'adressemail',
  'mél',
  'mel',
  'correo',
  'correoelectronico',
  'correoelectrónico',
  'direcciondecorreo',
  'direccióndecorreo',
  'correoe',
  'epost',
  'epostadress',
  'epostadresse',
  'sähköposti',
  'sahkoposti',
  'emailadres',
  'mailadres',
  'posta',
  'postaelettronica',
  'indirizzoemail',
  'enderecodeemail',
  'endereçodeemail',
  'correioeletronico',
  'correioeletrônico',
  'emailcim',
  'emailová',
  'adresemailowy',
  'почта',
  'электроннаяпочта',
  'емейл',
  'メール',
  'メールアドレス',
  '邮箱',
  '电子邮件',
  '電子郵件',
  '이메일',
]);

function normaliseHeader(cell: string): string {
  return cell
    .toLowerCase()
    .normalize('NFC')
    .replace(/[\s._\-–:()]/g, '');
}

/** How strongly a header cell says "addresses here": 2 exact, 1 mentions mail, 0 not at all. */
function headerScore(cell: string): number {
  const word = normaliseHeader(cell);
  if (emailHeaderWords.has(word)) return 2;
  return /mail|courriel|correo|posta|почта/.test(word) ? 1 : 0;
}

/** How many of a list's first rows its layout is decided from. */
export const layoutSampleRows = 200;

/**
 * Decides the layout from the first rows of a file. `column` (a header name or a 1-based number)
 * overrides the guess. Throws AppError('unreadable_file') when no column holds addresses.
 */
export function detectLayout(sample: string[][], displayName: string, column?: string): ListLayout {
  if (sample.length === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows.`);
  const width = Math.max(...sample.map((row) => row.length));
  const first = sample[0]!;
  const firstHasEmail = first.some((cell) => looksLikeEmail.test(cell));
  const hasHeader = !firstHasEmail && (first.some((cell) => headerScore(cell) > 0) || sample.length > 1);
  const headers = hasHeader ? first : [];
  const body = hasHeader ? sample.slice(1) : sample;

  if (column !== undefined) {
    const byName = headers.findIndex((cell) => cell.trim().toLowerCase() === column.trim().toLowerCase());
    const byNumber = /^\d+$/.test(column) ? Number(column) - 1 : -1;
    const columnIndex = byName !== -1 ? byName : byNumber;
    if (columnIndex < 0 || columnIndex >= width) {
      // A file's header is text from outside: no escape sequence of it reaches a terminal.
      const known =
        headers.length > 0 ? ` Its columns are: ${headers.map((h) => `"${withoutControls(h)}"`).join(', ')}.` : '';
      throw new AppError('bad_request', `"${displayName}" has no column "${column}".${known}`);
    }
    return { hasHeader, columnIndex, headers, width };
  }

  let best = { columnIndex: -1, score: 0, share: 0 };
  for (let index = 0; index < width; index += 1) {
    const cells = body.map((row) => row[index] ?? '').filter((cell) => cell.trim() !== '');
    const share = cells.length === 0 ? 0 : cells.filter((cell) => looksLikeEmail.test(cell)).length / cells.length;
    // Content decides; the header breaks ties between two address columns (Email beats Manager email).
    const score = share + (hasHeader ? headerScore(headers[index] ?? '') * 0.25 : 0);
    if (score > best.score) best = { columnIndex: index, score, share };
  }
  if (best.columnIndex === -1 || best.share < 0.2) {
    throw new AppError(
      'unreadable_file',
      `"${displayName}" has no column of email addresses. Choose the column by hand if the file has one.`,
    );
  }
  return { hasHeader, columnIndex: best.columnIndex, headers, width };
}
