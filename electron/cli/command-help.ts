// `sift <command> --help` and `sift help <command>`: each command's usage with an example or two, and the
// words for an option a command does not know (never Node's own "To specify a positional argument…").
// Each command's module keeps its usage line (shown again with a mistake); this adds what help adds.

/** `page`: the page of Sift's documentation (docs/ in its repository) that tells more. */
type CommandHelp = { usage: () => Promise<string>; examples: string[]; page: string };

const commands: Record<string, CommandHelp> = {
  clean: {
    usage: async () => {
      const { cleanDetails, cleanSynopsis } = await import('./clean-command.ts');
      return `${cleanSynopsis}\n${cleanDetails}`;
    },
    examples: [
      'sift clean leads.csv                                  # valid-only leads.cleaned.csv beside it',
      'sift clean leads.xlsx --sheet March --keep valid,catch_all --report',
      'SIFT_API_KEY=svc_live_… sift clean leads.csv --base-url https://verify.example.com',
    ],
    page: 'docs/cleaning-lists.md',
  },
  verify: {
    usage: async () => `Usage: ${(await import('./verify-command.ts')).verifyUsage}\nChecks one address now.`,
    examples: ['sift verify ann@example.com', 'sift verify ann@example.com --json'],
    page: 'docs/live-checks.md',
  },
  cache: {
    usage: async () =>
      `Usage: ${(await import('./cache-command.ts')).cacheUsage}\nShows or forgets the verdicts kept from earlier lists.`,
    examples: ['sift cache stats', 'sift cache clear'],
    page: 'docs/cleaning-lists.md',
  },
  suppress: {
    usage: async () =>
      `Usage: ${(await import('./suppress-command.ts')).suppressUsage}\nThe do-not-mail list every clean leaves out.`,
    examples: ['sift suppress add unsubscribed.csv competitor.example', 'sift suppress list --search example.com'],
    page: 'docs/cleaning-lists.md',
  },
  rules: {
    usage: async () =>
      `Usage: ${(await import('./rules-command.ts')).rulesUsage}\nRules per domain, decided before anything is sent: never billed.`,
    examples: [
      'sift rules never-check mycompany.example partners.txt',
      'sift rules list',
      'sift rules remove acme.example',
    ],
    page: 'docs/score-and-rules.md',
  },
  service: {
    usage: async () => (await import('./service-command.ts')).serviceUsage,
    examples: [
      'sift service --port 8080 --helo mail.example.com --mail-from verify@example.com',
      'sift service keys create --live --label CRM',
    ],
    page: 'docs/team-service.md',
  },
  app: {
    usage: async () =>
      `Usage: sift [app] [--port N] [--data DIR] [--no-open] [--browser default|PATH] [--allow-private-webhooks] [engine flags]\n` +
      `Opens the app in a window of its own (Chrome's, Edge's or Chromium's app mode, with its own profile in the\n` +
      `data folder), or in your default browser where none of those is installed or --browser default says so.\n` +
      `Closing that window, Ctrl-C or Quit in the app stops it. The engine flags are sift service's.`,
    examples: ['sift', 'sift app --port 8080 --no-open', 'sift --browser default'],
    page: 'docs/cleaning-lists.md',
  },
  update: {
    usage: async () => (await import('./update-command.ts')).updateUsage,
    examples: ['sift update --check', 'sift update', 'sift update --rollback'],
    page: 'docs/upgrading.md',
  },
  connect: {
    usage: async () =>
      `Usage: ${(await import('./connect-command.ts')).connectUsage}\nConnects Mailchimp, HubSpot or a Mailman 3 list server: the secret is checked now and kept in the key vault.`,
    examples: [
      'sift connect mailchimp --name shop                 # asks for the API key (or SIFT_MAILCHIMP_KEY)',
      'sift connect hubspot --name crm                    # asks for the private app token (or SIFT_HUBSPOT_TOKEN)',
      'SIFT_MAILMAN_PASSWORD=… sift connect mailman --name lists --api-url http://localhost:8001 --user restadmin',
      'sift connect imap --name bounces --host imap.example.com --user bounces@example.com   # a bounce mailbox',
    ],
    page: 'docs/connectors.md',
  },
  connections: {
    usage: async () =>
      `Usage: ${(await import('./connect-command.ts')).connectUsage}\nThe connections kept, without their secrets.`,
    examples: ['sift connections', 'sift connections remove lists'],
    page: 'docs/connectors.md',
  },
  audiences: {
    usage: async () =>
      `Usage: ${(await import('./connect-command.ts')).connectUsage}\nA connection's lists, with their ids and sizes; with LIST, a Mailchimp audience's segments and tags (for sift sync --segment).`,
    examples: ['sift audiences lists', 'sift audiences lists --json', 'sift audiences shop 1a2b3c4d5e'],
    page: 'docs/connectors.md',
  },
  sync: {
    usage: async () => {
      const { syncDetails, syncUsage } = await import('./sync-command.ts');
      return `Usage: ${syncUsage}\n${syncDetails}`;
    },
    examples: ['sift sync shop a1b2c3d4e5', 'sift sync shop a1b2c3d4e5 --write-back', 'sift sync crm all --keep valid'],
    page: 'docs/connectors.md',
  },
  schedule: {
    usage: async () =>
      `Usage: ${(await import('./schedule-command.ts')).scheduleUsage}\nSyncs a connected list again every day, week or month, when \`sift sync --due\` runs (from cron or a timer).`,
    examples: ['sift schedule shop a1b2c3d4e5 --every 7d --write-back', 'sift schedule', 'sift sync --due'],
    page: 'docs/connectors.md',
  },
  outcomes: {
    usage: async () =>
      `Usage: ${(await import('./outcomes-command.ts')).outcomesUsage}\nWhat happened after a send: bounces read back, the do-not-mail list kept from them, and how right Sift was.`,
    examples: [
      'sift outcomes read bounces                         # a bounce mailbox connected with sift connect imap',
      'sift outcomes read shop a1b2c3d4e5                 # a Mailchimp audience connected with sift connect',
      'sift outcomes import ses-bounces.csv               # a bounce export with a type column',
      'sift outcomes import suppressions.csv --kind hard  # every row a hard bounce',
      'sift outcomes --json                               # the accuracy ledger',
      'sift outcomes --list job_f25f841295682353          # one list: what happened to its addresses since',
      'sift outcomes export outcomes.csv                  # every outcome, yours to take anywhere',
      'sift outcomes list --kind hard && sift outcomes show 12 && sift outcomes undo 12',
      'SIFT_API_KEY=svc_live_… sift outcomes share --base-url https://sift.team.example  # with the team',
    ],
    page: 'docs/outcomes.md',
  },
  help: {
    usage: async () => 'Usage: sift help [COMMAND]\nSays what a command does and how it is typed.',
    examples: ['sift help clean', 'sift clean --help'],
    page: 'docs/contributing.md',
  },
};

export const commandNames = Object.keys(commands);

/** The overview: every command in a line, as `sift --help` and `sift help` print it. */
export function overview(): string {
  return `Usage: sift <command> [options]   (sift <command> --help for each)

  sift [app]        the app, in your browser
  sift clean        clean a list: CSV, TSV, text or a workbook
  sift verify       check one address now
  sift cache        the verdicts kept from earlier lists
  sift suppress     the do-not-mail list
  sift rules        rules per domain: keep, leave out, never check, catch-all
  sift service      Sift's verification service, on its own
  sift update       a newer Sift, checked and put in this one's place
  sift connect      connect Mailchimp, HubSpot or Mailman 3; sift connections lists them
  sift audiences    a connection's lists
  sift sync         clean a connected list, and write back what its verdicts call for
  sift schedule     sync a connected list again every day, week or month
  sift outcomes     bounces read back (a bounce mailbox, a file) and how right Sift was
  sift help         this, or a command's help
  sift --version

More: README.md and docs/ in Sift's repository (docs/contributing.md lists every page).
`;
}

/** A command's help, or undefined for a name that is not a command. */
export async function helpFor(command: string): Promise<string | undefined> {
  const help = commands[command];
  if (!help) return undefined;
  const examples = help.examples.map((line) => `  ${line}`).join('\n');
  return `${(await help.usage()).trimEnd()}\n\nExamples:\n${examples}\n\nMore: ${help.page} in Sift's repository.\n`;
}

/**
 * Node's option-parsing errors (`ERR_PARSE_ARGS_*`) in Sift's words, naming the option and the command's
 * help; undefined for any other error.
 */
export function optionMistake(error: unknown, command: string): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: string };
  // Not every error's code is a string: a timeout's DOMException carries a number.
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return undefined;
  const named = /'(-[^' ]+)/.exec(message ?? '')?.[1];
  const see = `See sift ${command} --help.`;
  const who = `sift ${command}`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `${who}: unknown option ${named}. ${see}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(message ?? '')
      ? `${who}: ${named} needs a value. ${see}`
      : `${who}: ${named} takes no value. ${see}`;
  }
  const argument = /argument '([^']*)'/.exec(message ?? '')?.[1];
  return `${who}: unexpected argument ${argument ?? ''}. ${see}`;
}
