// History's "What happened" panel: the accuracy ledger main computes (never the outcomes themselves here),
// and a bounce export brought in from a file.
import { create } from 'zustand';
import type { OutcomeImport, OutcomeLedger } from '../../../electron/common/contract.ts';
import type { MailboxView } from '../../../electron/common/outcome-schemas.ts';
import { sift } from '../bridge.ts';
import { countOf } from '../format.ts';
import { busyWhileIn } from './busy-while.ts';

type OutcomesState = {
  ledger?: OutcomeLedger;
  /** The bounce mailboxes connected (never their passwords). */
  mailboxes?: MailboxView[];
  busy: boolean;
  /** What the last import did, in words (for the live region too). */
  notice?: string;
  /** Rows of the last import Sift could not read. */
  examples?: string[];
  error?: string;
};

export const useOutcomesStore = create<OutcomesState>()(() => ({ busy: false }));

const { setState: set } = useOutcomesStore;
const busyWhile = busyWhileIn(set, { notice: undefined, examples: undefined });

function describeImport(read: OutcomeImport, from: string): string {
  const parts = [
    `${countOf(read.hard, 'hard bounce')} (${countOf(read.suppressed, 'address', 'addresses')} new on the do-not-mail list)`,
    countOf(read.soft, 'soft bounce'),
    ...(read.sender > 0 ? [`${countOf(read.sender, 'bounce')} that blamed the sender`] : []),
    ...(read.other > 0 ? [`${countOf(read.other, 'row')} that are no bounce`] : []),
    ...(read.refused > 0 ? [`${countOf(read.refused, 'row')} left out`] : []),
  ];
  const dated = read.datedBy === 'file' ? ' It has no date column: its bounces are dated by the file.' : '';
  return `${from}: ${parts.join(', ')}.${dated}`;
}

export const outcomesActions = {
  load: () =>
    busyWhile(async () => {
      set({ ledger: await sift.outcomes.ledger() });
    }),

  /** Forgets what was read from a source (`words`: how the panel names it), and the entries its bounces made. */
  forget: (name: string, words: string) =>
    busyWhile(async () => {
      const forgot = await sift.outcomes.forget({ name });
      set({
        ledger: await sift.outcomes.ledger(),
        notice: `Forgot ${countOf(forgot.outcomes, 'outcome')} from ${words}, and ${countOf(forgot.unsuppressed, 'do-not-mail entry', 'do-not-mail entries')} its bounces had made.`,
      });
    }),

  /** Sends what was read here to the team's service, and brings back what teammates read. */
  share: (host: string) =>
    busyWhile(async () => {
      const shared = await sift.outcomes.share();
      const back = [
        `${countOf(shared.received, 'new outcome')} from teammates (${countOf(shared.suppressed, 'address', 'addresses')} new on the do-not-mail list)`,
        ...(shared.undone > 0 ? [`${countOf(shared.undone, 'outcome')} undone by a teammate`] : []),
        ...(shared.letGo > 0 ? [`${countOf(shared.letGo, 'outcome')} let go with a source a teammate forgot`] : []),
        ...(shared.skipped > 0 ? [`${countOf(shared.skipped, 'outcome')} left out (no address)`] : []),
        ...(shared.catchAllDomains > 0
          ? [
              `teammates' sends to ${countOf(shared.catchAllDomains, 'catch-all domain')}, weighed in the next clean's scores`,
            ]
          : []),
      ];
      set({
        ledger: await sift.outcomes.ledger(),
        notice:
          `Shared with the team at ${host}: sent ${countOf(shared.sent, 'outcome')}` +
          (shared.forgotten > 0 ? ` and ${countOf(shared.forgotten, 'forgotten source')}` : '') +
          `; received ${back.join(', ')}.`,
      });
    }),

  importFile: (file: File, kind?: 'hard' | 'soft') =>
    busyWhile(async () => {
      const read = await sift.outcomes.import({ file: await sift.files.stage(file), ...(kind ? { kind } : {}) });
      set({ ledger: await sift.outcomes.ledger(), notice: describeImport(read, file.name), examples: read.examples });
    }),
};

/** What a person types to connect a bounce mailbox; the password leaves this page once, for main's vault. */
export type MailboxForm = {
  name: string;
  host: string;
  port: string;
  user: string;
  password: string;
  folder: string;
  plain: boolean;
};

export const mailboxActions = {
  load: () =>
    busyWhile(async () => {
      set({ mailboxes: await sift.outcomes.mailboxes() });
    }),

  /** Connects a mailbox (its password tried first); answers whether it went through. */
  connect: (form: MailboxForm) =>
    busyWhile(async () => {
      const mailboxes = await sift.outcomes.connectMailbox({
        name: form.name,
        host: form.host,
        ...(form.port.trim() ? { port: Number(form.port) } : {}),
        user: form.user,
        password: form.password,
        folder: form.folder || 'INBOX',
        plain: form.plain,
      });
      set({ mailboxes, notice: `Connected the bounce mailbox “${form.name}”: ${form.user} at ${form.host}.` });
    }),

  read: (name: string) =>
    busyWhile(async () => {
      const read = await sift.outcomes.readMailbox({ name });
      set({
        ledger: await sift.outcomes.ledger(),
        mailboxes: await sift.outcomes.mailboxes(),
        notice:
          `${name}: ${countOf(read.read, 'new message')}, ${countOf(read.bounces, 'bounce')} (${read.hard} hard, ${read.soft} soft), ` +
          `moved to Sift's folder; ${countOf(read.others, 'message')} that ${read.others === 1 ? 'is' : 'are'} no bounce left where ${read.others === 1 ? 'it is' : 'they are'}; ` +
          `${countOf(read.suppressed, 'address', 'addresses')} new on the do-not-mail list.`,
      });
    }),

  remove: (name: string) =>
    busyWhile(async () => {
      set({
        mailboxes: await sift.outcomes.removeMailbox({ name }),
        notice: `Removed the bounce mailbox “${name}” and its password.`,
      });
    }),
};
