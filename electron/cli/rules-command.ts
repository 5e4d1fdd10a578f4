// `sift rules`: the rules per domain the app's Rules screen and `sift clean` share (core/rules/), from a
// terminal. Each action is a word: `sift rules never-check acme.example partners.txt`.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ruleActions, ruleActionWords, type RuleAction } from '../common/domain-rules.ts';
import {
  openRuleStore,
  parseRuleDomain,
  setRulesFromFile,
  setRulesFromText,
  type RuleStore,
} from '../core/rules/index.ts';
import { privateDataDir } from './data-folder.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { count, day } from './cli-format.ts';

/** Each action as typed: `leave-out` for leave_out. */
const typed = (action: RuleAction) => action.replace('_', '-');
const actionOfWord = new Map(ruleActions.map((action) => [typed(action), action]));

export const rulesUsage =
  `sift rules ${ruleActions.map(typed).join('|')} <domain|file>... | list [--json] | remove <domain>...\n` +
  ruleActions.map((action) => `  ${typed(action).padEnd(12)} ${ruleActionWords[action].does}`).join('\n');

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

async function setRules(store: RuleStore, action: RuleAction, args: readonly string[], io: CliIo, cwd: string) {
  const byHand: string[] = [];
  let refused = 0;
  const say = (
    name: string,
    done: { added: number; changed: number; refused: number; refusedExamples: { entry: string; reason: string }[] },
  ) => {
    io.out(
      `${name}${count(done.added)} added, ${count(done.changed)} changed to ${ruleActionWords[action].name.toLowerCase()}.\n`,
    );
    for (const example of done.refusedExamples) io.err(`  "${example.entry}": ${example.reason}\n`);
    refused += done.refused;
  };
  for (const arg of args) {
    const path = resolve(cwd, arg);
    if (await isFile(path)) say(`${arg}: `, await setRulesFromFile(store, path, action));
    else byHand.push(arg);
  }
  if (byHand.length > 0) say('', setRulesFromText(store, byHand, action, 'by hand'));
  if (refused > 0)
    throw new CliExit(exitCodes.usage, `${count(refused)} left out: give domains (example.com) or files of them.`);
}

function list(store: RuleStore, json: boolean, io: CliIo): void {
  const last = store.lastList();
  const rules = store.all().map((rule) => ({ ...rule, lastListRows: last?.rows[rule.domain] ?? 0 }));
  if (json) {
    io.out(`${JSON.stringify({ rules, lastList: last ? { list: last.list, at: last.at } : null }, null, 2)}\n`);
    return;
  }
  for (const rule of rules)
    io.out(
      `${rule.domain}\t${typed(rule.action)}\t${count(rule.lastListRows)}\t${day(rule.addedAt)}\t${rule.source}\n`,
    );
  const where = last
    ? `rows decided in the last list, ${last.list} (${day(last.at)})`
    : 'no list read against them yet';
  io.err(`${count(rules.length)} rule${rules.length === 1 ? '' : 's'} (domain, action, ${where}, set on, from).\n`);
}

export async function runRules(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [word, ...args] = positionals;
  const usage = new CliExit(exitCodes.usage, `Usage: ${rulesUsage}`);
  const action = word === undefined ? undefined : actionOfWord.get(word);
  if (word === undefined || (!action && word !== 'list' && word !== 'remove')) throw usage;
  if ((word === 'list') !== (args.length === 0)) throw usage;
  const store = openRuleStore(privateDataDir(io));
  try {
    if (action) await setRules(store, action, args, io, io.env.INIT_CWD ?? process.cwd());
    else if (word === 'list') list(store, values.json, io);
    else {
      const domains = args.map((arg) => {
        const parsed = parseRuleDomain(arg);
        return 'domain' in parsed ? parsed.domain : arg.trim().toLowerCase();
      });
      const removed = store.remove(domains);
      const absent = domains.length - removed;
      io.out(`${count(removed)} removed${absent > 0 ? `; ${count(absent)} had no rule` : ''}.\n`);
    }
    return exitCodes.done;
  } finally {
    store.close();
  }
}
