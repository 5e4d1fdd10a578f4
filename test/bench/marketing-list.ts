// A realistic marketing export for `npm run bench`, written as a stream so ten million rows never sit in
// memory: several columns, quoted cells (commas, quotes, line breaks), duplicates in another case and
// spacing, role, disposable, typo-domain, bad-syntax and empty addresses, spread over many mail hosts.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const firstNames = ['Anna', 'Ben', 'Chloé', 'David', 'Eva', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kaito', 'Lena'];
const lastNames = ['Müller', 'Smith', "O'Brien", 'García', 'Nguyen', 'Rossi', 'Kowalski', 'Dubois', 'Tanaka', 'Berg'];
const providers = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'gmx.de', 'web.de'];
const typos = ['gmial.com', 'hotmial.com', 'yaho.com', 'outlok.com'];
const roles = ['info', 'sales', 'support', 'admin', 'contact'];
const countries = ['DE', 'US', 'FR', 'GB', 'ES', 'IT', 'NL', 'PL'];

/** A small deterministic generator, so every run benches the same list. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The address of row `i`; about 1 in 20 rows repeats an earlier address in another case and spacing. */
function emailOf(i: number, roll: number, pick: () => number): string {
  const first = firstNames[i % firstNames.length]!.toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]/g, '');
  const domainOf = (n: number) => (n % 3 === 0 ? providers[n % providers.length]! : `company${n % 20_000}.example`);
  if (roll < 0.05 && i > 10) {
    const earlier = Math.floor(pick() * i);
    return `  ${first}.${earlier}@${domainOf(earlier).toUpperCase()} `;
  }
  if (roll < 0.06) return '';
  if (roll < 0.075) return `${first}.${i}@@${domainOf(i)}`;
  if (roll < 0.09) return `${first}.${i}@${typos[i % typos.length]}`;
  if (roll < 0.11) return `${roles[i % roles.length]}@${domainOf(i)}`;
  if (roll < 0.13) return `${first}.${i}@mailinator.com`;
  return `${first}.${i}@${domainOf(i)}`;
}

/** The list's columns, in order. */
export const marketingColumns = [
  'id',
  'first_name',
  'last_name',
  'email',
  'company',
  'phone',
  'country',
  'signup_date',
  'notes',
];

export async function writeMarketingList(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const pick = random(rows);
  out.write(`${marketingColumns.join(',')}\r\n`);
  for (let start = 0; start < rows; start += 10_000) {
    let text = '';
    for (let i = start; i < Math.min(rows, start + 10_000); i += 1) {
      const roll = pick();
      const note = roll > 0.97 ? 'Met at fair, said "call me",\nprefers email' : roll > 0.9 ? 'VIP, renewal' : '';
      const cells = [
        String(i + 1),
        firstNames[i % firstNames.length]!,
        lastNames[i % lastNames.length]!,
        emailOf(i, roll, pick),
        `Company ${i % 5000}, Inc.`,
        `+49 30 ${String(1_000_000 + i).slice(1)}`,
        countries[i % countries.length]!,
        `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
        note,
      ];
      text += `${cells.map(quote).join(',')}\r\n`;
    }
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
