// Checks the reply corpora's citations that name a repository's file (test/fixtures/smtp-replies/*.json):
// the file is there, it holds the reply's words (at least `minRun` of them in a row, once addresses, IPs,
// codes and ids are set aside: the corpora replace those with documentation values), and where the file is
// a bounce that says which command the reply answered, that command is the entry's stage. A citation of a
// web page is for a person to check; this names them.
//
//   node test/corpus-citations.ts MIRRORS
//
// MIRRORS holds each cited repository as <owner>+<name>/repo, a bare clone (git clone --bare) or a clone's
// .git folder, or as <owner>+<name>/, a checkout. A source written "class: owner/name path" cites a file
// for how it classes the reply (a pattern): it must be there; the reply's words are on the page beside it. Exits 1 when a cited file does not hold its reply or its stage.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Entry = { reply: string; stage: string; source: string };

const minRun = 3;
const corpora = ['corpus.json', 'unseen-corpus.json'].map((name) => ({
  name,
  entries: (
    JSON.parse(readFileSync(new URL(`fixtures/smtp-replies/${name}`, import.meta.url), 'utf8')) as {
      replies: Entry[];
    }
  ).replies,
}));

/** owner/name then a path with an extension: "sisimai/p5-sisimai lib/Sisimai/Rhost/Google.pm". */
const citation = /\b([A-Za-z0-9][\w.-]*\/[\w.-]+) ((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z]{1,5})\b/g;

/** Each repository file a source names; "lib/Sisimai/Reason/Blocked.pm, UserUnknown.pm" names two. */
function citedFiles(source: string): { repo: string; path: string; classOnly: boolean }[] {
  return [...source.matchAll(citation)].flatMap((match) => {
    const [, repo, path] = match as unknown as [string, string, string];
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
    const rest = source.slice(match.index! + match[0].length);
    const siblings = /^(?:, ?[\w.-]+\.[A-Za-z]{1,5}\b)+/.exec(rest)?.[0] ?? '';
    const names = siblings
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    // "class: owner/name path": the file says how the reply is classed (a pattern), not its words.
    const classOnly = /class: $/.test(source.slice(0, match.index));
    return [{ repo, path }, ...names.map((name) => ({ repo, path: folder + name }))].map((file) => ({
      ...file,
      classOnly,
    }));
  });
}

/** The words of a text, without what the corpora replace or what differs between two copies of one reply. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<[^>\s]*>|\S+@\S+|\b\d{1,3}(\.\d{1,3}){3}\b|https?:\/\/\S+/g, ' ')
    .replace(/\b[245]\d\d[- ]|\b[245]\.\d{1,3}\.\d{1,3}\b/g, ' ')
    .split(/[^a-z']+/)
    .filter((word) => word.length > 1);
}

function fileText(mirrors: string, repo: string, path: string): string | undefined {
  const folder = join(mirrors, repo.replace('/', '+'));
  // A bare clone (repo/HEAD), or a clone's git folder with no files out (repo/.git/HEAD), or a checkout.
  const gitDir = [join(folder, 'repo'), join(folder, 'repo', '.git')].find((dir) => existsSync(join(dir, 'HEAD')));
  if (gitDir) {
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 64e6 });
    } catch {
      return undefined;
    }
  }
  return existsSync(join(folder, path)) ? readFileSync(join(folder, path), 'utf8') : undefined;
}

/** The most of the reply's words, in a row, the file holds; and where in the file the longest run is. */
function longestRun(reply: string[], file: string): { run: number; at: number } {
  const text = ` ${words(file).join(' ')} `;
  let best = { run: 0, at: -1 };
  for (let start = 0; start < reply.length; start += 1) {
    for (let end = reply.length; end - start > best.run; end -= 1) {
      const at = text.indexOf(` ${reply.slice(start, end).join(' ')} `);
      if (at >= 0) {
        best = { run: end - start, at };
        break;
      }
    }
  }
  return best;
}

/** The command a bounce says the reply answered, near where the reply is: Exim's and Sendmail's words. */
function stageSaid(file: string, reply: string[]): string | undefined {
  const lines = file.split(/\r?\n/);
  const probe = reply.slice(0, minRun).join(' ');
  const index = lines.findIndex((line) => words(line).join(' ').includes(probe));
  if (index < 0) return undefined;
  const near = lines.slice(Math.max(0, index - 4), index + 2).join(' ');
  const said =
    /(?:in reply to|after)\s+(?:the\s+)?(RCPT TO|MAIL FROM|end of data|DATA|HELO|EHLO|initial connection)/i.exec(
      near,
    )?.[1];
  if (!said) return undefined;
  const named = said.toLowerCase();
  return named.startsWith('rcpt')
    ? 'rcpt'
    : named.startsWith('mail')
      ? 'mail'
      : /helo|ehlo/.test(named)
        ? 'ehlo'
        : named.startsWith('initial')
          ? 'greeting'
          : 'data';
}

const mirrors = process.argv[2];
if (!mirrors) {
  console.error('Usage: node test/corpus-citations.ts MIRRORS (a folder of the cited repositories)');
  process.exit(2);
}
let failed = 0;
let checked = 0;
const pagesOnly = new Map<string, number>();
for (const { name, entries } of corpora) {
  for (const entry of entries) {
    const cited = citedFiles(entry.source);
    if (cited.length === 0) {
      const where = /https?:\/\/[^/\s;)]+/.exec(entry.source)?.[0] ?? entry.source.slice(0, 60);
      pagesOnly.set(where, (pagesOnly.get(where) ?? 0) + 1);
      continue;
    }
    checked += 1;
    const reply = words(entry.reply);
    const problems: string[] = [];
    let held = false;
    for (const { repo, path, classOnly } of cited) {
      const file = fileText(mirrors, repo, path);
      if (file === undefined) {
        problems.push(`${repo} ${path}: not in ${mirrors}`);
        continue;
      }
      if (classOnly) continue;
      const { run } = longestRun(reply, file);
      if (run < Math.min(minRun, reply.length)) {
        problems.push(`${repo} ${path}: holds ${run} of its words in a row`);
        continue;
      }
      held = true;
      // A bounce (.eml) says which command the reply answered; other files' nearby words are about other replies.
      const stage = path.endsWith('.eml') ? stageSaid(file, reply) : undefined;
      if (stage && stage !== entry.stage) problems.push(`${repo} ${path}: answers ${stage}, not ${entry.stage}`);
    }
    // Several sources: the reply must be in one of the files (or, where the files only class it, on the page
    // beside them, for a person to check); a stage a file contradicts, or a file not there, is wrong either way.
    const textCited = cited.some((file) => !file.classOnly);
    const wrong = problems.some((problem) => problem.includes(' answers ') || problem.endsWith(` not in ${mirrors}`));
    if ((textCited && !held) || wrong) {
      failed += 1;
      console.log(`${name}: ${entry.reply.split('\n')[0]!.slice(0, 100)}\n  ${problems.join('\n  ')}`);
    }
  }
}
console.log(`\n${checked} entries cite a repository's file; ${failed} of them not as cited.`);
console.log(`By hand (web pages and manuals, not files):`);
for (const [where, count] of [...pagesOnly].sort((a, b) => b[1] - a[1])) console.log(`  ${count} ${where}`);
process.exit(failed > 0 ? 1 : 0);
