// The test tiers. `npm test` runs the fast tier: every test file not named below, on SQLite, and the browser
// tests but the binary's. What is slow by nature has a tier of its own, run by `npm run test:<tier>`;
// `npm run test:all` and CI (.ci/run) run them all. A file is in exactly one tier (code-health.test.ts
// checks it); the PostgreSQL tier runs the service's suite again on PostgreSQL besides its own files.

/** Files of a tier of their own, by tier: each `npm run test:<tier>`. */
export const tierFiles = {
  /** Debian's Postfix, postgrey, Exim and OpenSMTPD, rbldnsd, and Dovecot serving Postfix's bounces, on loopback (root; CI installs them). */
  'mail-servers': [
    'test/integration/real-mta/real-mail-servers.test.ts',
    'test/integration/real-mta/real-blocklists.test.ts',
    'test/integration/real-mta/bounce-mailbox.test.ts',
  ],
  /** The single file built (about a minute and a half) and run: from a folder, and in a browser. */
  binary: ['test/integration/packaging/single-executable.test.ts', 'test/e2e/single-executable.spec.ts'],
  /** Every kept data folder of an earlier version opened, migrated, exported again byte for byte. */
  'data-folders': ['test/integration/cli/earlier-data-folders.test.ts'],
  /** The app in a window of its own: Debian's Chromium in app mode under Xvfb, and a watcher as nobody. */
  'app-window': ['test/integration/cli/app-window.test.ts'],
  /** Every screen in dark and light mode, small and at the desktop size, shot and checked for accessibility. */
  screens: ['test/e2e/screens.spec.ts'],
  /** Figures against the wall clock and memory, which hold on an idle machine: the estimate, uploads' and bombs' memory. */
  timing: [
    'test/integration/timing/estimate-accuracy.test.ts',
    'test/integration/timing/upload-memory.test.ts',
    'test/integration/timing/address-index-memory.test.ts',
    // Workbooks and lines that unpack past any list: refused in words, the process's peak memory watched.
    'test/integration/cli/import-bombs.test.ts',
  ],
  /** A real Mailman 3 (Debian's mailman3) on loopback, synced and written back (CI installs it). */
  'list-servers': ['test/integration/list-servers/mailman-sync.test.ts'],
  /** Only on PostgreSQL (the rest of the service's suite runs there again in this tier). */
  postgres: ['test/integration/core/service/postgres-schema.test.ts'],
  /**
   * Kill-and-resume runs (twenty kills of a list of 200,000 rows, by a file and by any service), a workbook
   * of a million rows, the whole `npm run dist` (four computers, two .debs) and the .deb installed and purged.
   */
  soak: [
    'test/integration/cli/sift-clean-kill.test.ts',
    'test/integration/core/jobs/any-service-kill.test.ts',
    'test/integration/cli/sift-clean-workbook.test.ts',
    'test/integration/packaging/all-downloads.test.ts',
    'test/integration/packaging/server-package.test.ts',
  ],
} as const;

/** The browser tests' files of a tier: `SIFT_E2E_TIER=<tier> playwright test` runs them (playwright.config.ts). */
export const browserTierFiles = (tier: keyof typeof tierFiles): string[] =>
  (tierFiles[tier] as readonly string[]).filter((file) => file.endsWith('.spec.ts'));

/** Every file of a tier of its own: the fast tier leaves them out. */
export const tieredFiles: readonly string[] = Object.values(tierFiles).flat();

/**
 * The fast tier's files that take longest, mostly waiting on servers and timers rather than working: started
 * first (long-files-first.ts), so they overlap the rest instead of running alone at the end. Vitest orders
 * by last run's times, which a fresh clone does not have: it then starts the largest files first, and the
 * reply corpus, a small file, came last and ran 24 s alone.
 */
export const startFirst: readonly string[] = [
  'test/integration/real-replies/reply-corpus.test.ts',
  'test/integration/real-replies/unseen-replies.test.ts',
  'test/integration/cli/sift-sync-mailchimp.test.ts',
  'test/unit/core/lists/csv-byte-rows.test.ts',
  'test/integration/core/service/engines/live/smtp-proxy-proof.test.ts',
];

/**
 * The skips each vitest project expects, file by file, with why (skip-reporter.ts names every skip at the end
 * of a run, and with SIFT_UNEXPECTED_SKIPS=fail, as CI sets, fails the run on any other).
 */
export const expectedSkips: readonly { project: string; file: string; why: string }[] = [
  ...[
    'test/integration/core/service/many-processes.test.ts',
    'test/integration/core/service/worker-takeover.test.ts',
    'test/integration/core/service/store/schema-drift.test.ts',
    'test/integration/core/service/service-roles-cli.test.ts',
  ].map((file) => ({ project: 'sqlite', file, why: 'PostgreSQL only: npm run test:postgres runs it' })),
  {
    project: 'postgres',
    file: 'test/integration/core/service/staging.test.ts',
    why: 'a SQLite store from before schemas 5 and 6: SQLite only',
  },
];
