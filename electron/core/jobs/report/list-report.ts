// A cleaned list's report, to hand on: one self-contained HTML file (inline style and SVG, system fonts,
// nothing fetched) that prints to at most two A4 or Letter pages. It says how the list was checked in the
// words the app uses (a demo's verdicts never read as a mail server's), the funnel, the verdicts as a chart
// and a table, mailbox providers and top domains, what the cleaned list kept and left out, what it cost,
// and what to do with each group.
import type { ListBreakdown, ListSummary } from '../../../common/list-schemas.ts';
import type { OutcomeLedger } from '../../../common/outcome-schemas.ts';
import { demoVerdictsNote } from '../../../common/demo-verdicts.ts';
import { describeChanges } from '../../../common/changes-words.ts';
import { reasonWords, senderRefusedCount } from '../../../common/reason-words.ts';
import { keptCount, spreadOf } from '../../../common/score-triage.ts';
import { barChart, escapeHtml, formatCount, percentOf, reportStyle, table, type Bar } from './report-html.ts';

export type ReportInput = {
  listName: string;
  /** When the verdicts were got (the job's last change) and when this report was made. */
  checkedAt: Date;
  madeAt: Date;
  /** How it was checked: a demo (sandbox key), Sift's own live checks, or a hosted service by its host. */
  checkedBy: { kind: 'demo' } | { kind: 'own' } | { kind: 'hosted'; host: string };
  summary: ListSummary;
  breakdown: ListBreakdown;
  /** The cleaned list's choices: the verdicts it keeps and the flags it leaves out. */
  keep: readonly string[];
  /** The score each kept verdict had to reach, where one was set. */
  keepAtScore: Readonly<Record<string, number>>;
  remove: { role: boolean; disposable: boolean; typos: boolean };
  version: string;
  /** What happened after earlier sends, over the whole data folder (outcomes/), when any was read back. */
  outcomes?: OutcomeLedger;
};

const verdictNames: Record<string, string> = {
  valid: 'Valid',
  invalid: 'Invalid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  unverified: 'Not checked',
};
const verdictColors: Record<string, string> = {
  valid: '#12b76a',
  invalid: '#f04438',
  catch_all: '#f79009',
  unknown: '#98a2b3',
  unverified: '#d0d5dd',
};

const day = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

function howChecked(input: ReportInput): string {
  switch (input.checkedBy.kind) {
    case 'demo':
      return `<p class="how how--demo"><strong>Demo.</strong> ${escapeHtml(demoVerdictsNote)}</p>`;
    case 'own':
      return '<p class="how">Checked live by Sift on the computer it runs on: each address\'s mail server was asked whether it accepts the address, without sending mail.</p>';
    case 'hosted':
      return `<p class="how">Checked by the verification service at <strong>${escapeHtml(input.checkedBy.host)}</strong>.</p>`;
  }
}

function funnel(s: ListSummary): string {
  const row = (label: string, count: number, sub = false) =>
    `<tr${sub ? ' class="sub"' : ''}><th scope="row">${label}</th><td>${formatCount(count)}</td><td>${percentOf(count, s.rows)}</td></tr>`;
  const others = Object.entries(s.other_results).map(([result, count]) => row(escapeHtml(result), count, true));
  return (
    '<table class="funnel"><caption>From rows to verdicts</caption>' +
    '<thead><tr><th scope="col">Rows</th><th scope="col">Count</th><th scope="col">Share</th></tr></thead><tbody>' +
    row('Rows in the list', s.rows) +
    row('No address in the row', s.no_address, true) +
    row('Not an email address (bad syntax)', s.bad_syntax, true) +
    row('Repeats of an address above', s.duplicates, true) +
    row('On the do-not-mail list', s.suppressed, true) +
    (s.ruled ? row('Decided by your rules (never sent)', s.ruled, true) : '') +
    row('Addresses checked', s.to_check) +
    ['valid', 'invalid', 'catch_all', 'unknown', 'unverified']
      .map((result) => row(verdictNames[result]!, s[result as 'valid'], true))
      .join('') +
    others.join('') +
    '</tbody></table>'
  );
}

function verdicts(s: ListSummary): string {
  const results = ['valid', 'invalid', 'catch_all', 'unknown', ...(s.unverified > 0 ? ['unverified'] : [])];
  const bars: Bar[] = results.map((result) => ({
    label: verdictNames[result]!,
    count: s[result as 'valid'],
    color: verdictColors[result]!,
  }));
  return barChart(bars, s.to_check);
}

function breakdowns(b: ListBreakdown, s: ListSummary): string {
  const providers = b.providers.map((p) => [
    escapeHtml(p.provider),
    formatCount(p.count),
    percentOf(p.count, s.to_check),
  ]);
  const domains = b.topDomains.map((d) => [escapeHtml(d.domain), formatCount(d.count), percentOf(d.count, s.to_check)]);
  const none = [['<em>None</em>', '', '']];
  return (
    '<div class="grid">' +
    table('Mailbox providers', ['Provider', 'Addresses', 'Share'], providers.length ? providers : none) +
    table('Top domains', ['Domain', 'Addresses', 'Share'], domains.length ? domains : none) +
    '</div>'
  );
}

function cleaned(input: ReportInput): string {
  const s = input.summary;
  const kept = input.keep.map(
    (result) => `${verdictNames[result] ?? result} (${formatCount(s[result as 'valid'] ?? 0)})`,
  );
  const left = ['valid', 'invalid', 'catch_all', 'unknown']
    .filter((result) => !input.keep.includes(result))
    .map((result) => `${verdictNames[result]} (${formatCount(s[result as 'valid'])})`);
  const flags = [
    input.remove.role ? `role addresses such as info@ (${formatCount(s.role)})` : '',
    input.remove.disposable ? `disposable addresses (${formatCount(s.disposable)})` : '',
    input.remove.typos ? `addresses with a likely typo (${formatCount(s.typos)})` : '',
  ].filter(Boolean);
  const byScore = Object.entries(input.keepAtScore).map(
    ([result, score]) => `${verdictNames[result] ?? result} only when scoring ${score} or more`,
  );
  const holds = keptCount(input.breakdown.scoreGroups, input, input.breakdown.scoreWeights);
  return (
    `<p><strong>Kept:</strong> ${kept.join(', ') || 'nothing'}${byScore.length > 0 ? `; ${byScore.join(', ')}` : ''}: ` +
    `${formatCount(holds)} address${holds === 1 ? '' : 'es'} in all.</p>` +
    `<p><strong>Left out:</strong> ${[...left, 'rows without an address or with bad syntax', 'repeats', 'the do-not-mail list', ...flags].join('; ')}.</p>`
  );
}

/** How each verdict's addresses score (risk-score.ts), in the bands the app shows. */
function scores(b: ListBreakdown): string {
  const spread = spreadOf(b.scoreGroups, b.scoreWeights);
  const rows = Object.keys(verdictNames)
    .filter((result) => spread[result])
    .map((result) => [
      verdictNames[result]!,
      ...['80+', '50-79', '<50'].map((band) => formatCount(spread[result]![band] ?? 0)),
    ]);
  if (rows.length === 0) return '';
  return (
    '<section><h2>Scores</h2>' +
    table('Addresses per score (0 to 100), by verdict', ['Verdict', '80 or more', '50 to 79', 'Below 50'], rows) +
    '<p class="meta">A score is made of the verdict and what Sift knows of the address (role, disposable, a likely typo, a full mailbox, a reused verdict); it cannot know whether anyone reads the mailbox, or a spam trap. The annotated file gives each row its score and reasons.</p></section>'
  );
}

function costs(input: ReportInput): string {
  const s = input.summary;
  const credits = input.checkedBy.kind === 'demo' ? '0 (a demo is free)' : formatCount(s.billed);
  return table(
    undefined,
    ['', 'Count'],
    [
      ['Credits spent (valid, invalid and catch-all verdicts)', credits],
      ['Verdicts reused from earlier lists (not sent, not paid for)', formatCount(s.cached)],
      ['Addresses on the do-not-mail list (never sent)', formatCount(s.suppressed)],
    ],
  );
}

/** "1 valid address", "2 valid addresses". */
const addresses = (count: number, kind: string) => `${formatCount(count)} ${kind} address${count === 1 ? '' : 'es'}`;

/** Why the unknown addresses are unknown, each reason in a sentence; not for a demo, whose reasons are scripted. */
function unknownReasons(b: ListBreakdown, s: ListSummary): string {
  const rows = b.unknownReasons.map((row) => [
    escapeHtml(row.reason ? reasonWords(row.reason) : 'The service gave no reason.'),
    formatCount(row.count),
    percentOf(row.count, s.unknown),
  ]);
  const refused = senderRefusedCount(b.unknownReasons);
  const note =
    refused > 0
      ? `<p class="how how--warn" data-sender-refused><strong>${addresses(refused, 'unknown')} ${refused === 1 ? 'was' : 'were'} left unknown because mail servers refused Sift's checking address,</strong> not the addresses: this says nothing about them, and nothing was charged. Check them again once the sending address is off the blocklist, or from another way out.</p>`
      : '';
  return note + table(undefined, ['Why', 'Addresses', 'Share of unknown'], rows);
}

/**
 * What to do with each verdict. A demo's verdicts are a script's, not a mail server's: its advice says what a
 * demo can say (how the real verdicts would be used), never that servers accepted anything.
 */
function advice(s: ListSummary, refused: number, demo: boolean): string {
  if (demo) {
    return (
      '<ul class="advice">' +
      `<li><strong>These are demo verdicts:</strong> a script gave them, no mail server was asked, and nothing was charged. They show what a report looks like, not which addresses work.</li>` +
      `<li><strong>Check the list with a live key</strong> (on this computer, your own Sift server, or a hosted service) before sending to any of it: then valid addresses are those whose mail servers accept them, and invalid ones those they refuse.</li>` +
      '</ul>'
    );
  }
  return (
    '<ul class="advice">' +
    `<li><strong>Send to the ${addresses(s.valid, 'valid')}:</strong> their mail servers accept them.</li>` +
    `<li><strong>Send to the ${addresses(s.catch_all, 'catch-all')} with care:</strong> their domains accept every address, so none can be confirmed; watch their bounces, or send to them last.</li>` +
    `<li><strong>Leave out the ${addresses(s.invalid, 'invalid')}:</strong> their mailboxes do not exist, and mail to them bounces and harms your sending reputation.</li>` +
    `<li><strong>Check the ${addresses(s.unknown, 'unknown')} again later:</strong> their servers did not settle it (busy, greylisting, a policy${refused > 0 ? `, or a refusal of Sift's own checking address for ${formatCount(refused)} of them` : ''}); nothing was charged for them.</li>` +
    '</ul>'
  );
}

/**
 * The accuracy ledger (every list this data folder checked live, not this list alone): of the addresses
 * Sift called each verdict, how many bounced since, and from where that was read.
 */
function whatHappened(ledger: OutcomeLedger): string {
  const rows = ledger.byVerdict
    .filter((row) => row.checked > 0)
    .map((row) => [
      escapeHtml(verdictNames[row.result] ?? row.result),
      formatCount(row.checked),
      ledger.sendsKnown ? formatCount(row.sent) : 'not known',
      `${formatCount(row.hard)} (${percentOf(row.hard, row.checked)})`,
      formatCount(row.soft),
      formatCount(row.refused),
    ]);
  return (
    `<p data-ledger>${escapeHtml(ledger.sentence)}</p>` +
    table(
      'Addresses Sift checked live (every list of this computer), and what happened to them since',
      ['Sift said', 'Checked', 'Sent to', 'Bounced hard', 'Soft', 'Blamed the sender'],
      rows,
    ) +
    `<p class="meta">Read back from ${escapeHtml(ledger.sources.map((source) => source.name).join(', '))}. ` +
    `${ledger.sendsKnown ? '' : 'Who was sent to is not known from a bounce mailbox or file; '}rates are of the addresses checked.</p>`
  );
}

export function renderListReport(input: ReportInput): string {
  const s = input.summary;
  const demo = input.checkedBy.kind === 'demo';
  const title = `${demo ? 'Demo report' : 'Report'}: ${input.listName}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${reportStyle}</style>
</head>
<body>
<main>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="meta">${formatCount(s.rows)} rows · ${formatCount(s.to_check)} addresses checked · verdicts of ${day(input.checkedAt)}</p>
${howChecked(input)}
</header>
<section><h2>Verdicts${demo ? ' (demo)' : ''}</h2>${verdicts(s)}${funnel(s)}</section>
<section><h2>Where the addresses are</h2>${breakdowns(input.breakdown, s)}</section>
${!demo && s.unknown > 0 && input.breakdown.unknownReasons.length > 0 ? `<section><h2>Why ${addresses(s.unknown, 'unknown')}</h2>${unknownReasons(input.breakdown, s)}</section>` : ''}
${s.changed ? `<section><h2>What changed since the last check</h2><p data-changes>${escapeHtml(describeChanges(s.changed))}</p></section>` : ''}
${scores(input.breakdown)}
${input.outcomes && input.outcomes.sources.length > 0 ? `<section><h2>What happened after earlier sends</h2>${whatHappened(input.outcomes)}</section>` : ''}
<section><h2>The cleaned list</h2>${cleaned(input)}</section>
<section><h2>What it cost</h2>${costs(input)}</section>
<section><h2>What to do</h2>${advice(s, senderRefusedCount(input.breakdown.unknownReasons), demo)}</section>
<footer>Made by Sift ${escapeHtml(input.version)} on ${day(input.madeAt)}.${demo ? ' Demo verdicts: no mail server was asked.' : ''}</footer>
</main>
</body>
</html>
`;
}
