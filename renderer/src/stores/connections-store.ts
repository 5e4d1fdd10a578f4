// The Connections screen: the mailing tools connected (never their secrets: those go to main and stay
// there), a tool's lists, and each sync of a list, from reading its members to writing its plan back.
import { create } from 'zustand';
import type { AudienceView, ConnectionsPage } from '../../../electron/common/contract.ts';
import {
  subscribedOnly,
  toolNames,
  type ConnectorKind,
  type PlanChoices,
  type ReadChoice,
  type SegmentView,
  verdictsOnly,
} from '../../../electron/common/connector-schemas.ts';
import { errorMessage, sift } from '../bridge.ts';
import { countOf } from '../format.ts';
import { busyWhileIn } from './busy-while.ts';
import { cleanActions } from './clean-store.ts';
import { go } from './nav-store.ts';

type ConnectionsState = {
  page?: ConnectionsPage;
  /** The lists of the connection a person opened. */
  audiences?: { name: string; lists: AudienceView[] };
  /** Members read or changes written so far, while a sync reads or writes. */
  progress?: { syncId: number; step: 'reading' | 'writing'; count: number };
  busy: boolean;
  /** What the last change did, in words (for the live region too). */
  notice?: string;
  error?: string;
};

export const useConnectionsStore = create<ConnectionsState>()(() => ({ busy: false }));

const { getState: get, setState: set } = useConnectionsStore;
const busyWhile = busyWhileIn(set, { notice: undefined });

/** What a person types to connect a tool; the secret leaves this page once, for main's vault. */
export type ConnectForm = { kind: ConnectorKind; name: string; secret: string; apiUrl: string; user: string };

const load = async () => set({ page: await sift.connectors.list() });

let unsubscribe: (() => void) | undefined;

export const connectionsActions = {
  load: () => {
    unsubscribe ??= sift.connectors.onDidProgress((progress) => set({ progress }));
    return busyWhile(load);
  },

  /** Connects a tool (its secret checked first); answers whether it went through. */
  add: (form: ConnectForm) =>
    busyWhile(async () => {
      set({ page: await sift.connectors.add(form) });
      const added = get().page?.connections.find((each) => each.name === form.name);
      set({ notice: `Connected “${form.name}” to ${toolNames[form.kind]}: ${added?.reaches ?? 'the secret works'}.` });
    }),

  /** Reads back what happened after the tool's sends to a list: only what is new since the last read. */
  bounces: (name: string, audience: string, listName: string) =>
    busyWhile(async () => {
      const read = await sift.connectors.bounces({ name, audience });
      const others = [
        ...(read.soft > 0 ? [countOf(read.soft, 'soft bounce')] : []),
        ...(read.refused > 0 ? [`${countOf(read.refused, 'bounce')} not about the mailbox`] : []),
        ...(read.sends > 0 ? [countOf(read.sends, 'send')] : []),
      ];
      set({
        notice:
          `${listName}: ${countOf(read.hard, 'new hard bounce')}` +
          `${others.length > 0 ? `, ${others.join(', ')}` : ''}; ` +
          `${countOf(read.suppressed, 'address', 'addresses')} new on the do-not-mail list. History shows how Sift's verdicts turned out.`,
      });
    }),

  test: (name: string) =>
    busyWhile(async () => {
      const { reaches } = await sift.connectors.test({ name });
      set({ notice: `“${name}” works: ${reaches}.` });
    }),

  remove: (name: string) =>
    busyWhile(async () => {
      set({ page: await sift.connectors.remove({ name }), audiences: undefined });
      set({ notice: `Removed “${name}” and its secret from this computer. Nothing in the tool was changed.` });
    }),

  showAudiences: (name: string) =>
    busyWhile(async () => {
      set({ audiences: undefined });
      set({ audiences: { name, lists: await sift.connectors.audiences({ name }) } });
    }),

  /** A Mailchimp audience's segments and tags, for reading one of them only (none when they cannot be read). */
  segments: async (name: string, audience: string): Promise<SegmentView[]> => {
    try {
      return await sift.connectors.segments({ name, audience });
    } catch (error) {
      set({ error: errorMessage(error) });
      return [];
    }
  },

  /**
   * Reads a list's members (as `choice` says) and opens them on the Clean screen, where their cost is shown
   * before sending.
   */
  read: (name: string, audience: string, listName?: string, choice: ReadChoice = subscribedOnly) =>
    busyWhile(async () => {
      const sync = await sift.connectors.read({
        name,
        audience,
        ...(listName ? { listName } : {}),
        include: [...choice.include],
        segment: choice.segment,
      });
      set({ progress: undefined });
      await load();
      if (sync.jobId === null) {
        set({ notice: `${listName ?? audience} has no members Sift would check: nothing is cleaned or written.` });
        return;
      }
      go('clean');
      await cleanActions.openJob(sync.jobId);
    }),

  openList: async (jobId: string) => {
    go('clean');
    await cleanActions.openJob(jobId);
  },

  /** Plans a cleaned list, with what the person ticked besides the verdicts' own changes. */
  plan: (syncId: number, choices: PlanChoices = verdictsOnly) =>
    busyWhile(async () => {
      await sift.connectors.plan({ syncId, ...choices });
      await load();
    }),

  writeBack: (syncId: number) =>
    busyWhile(async () => {
      const sync = await sift.connectors.writeBack({ syncId });
      set({ progress: undefined });
      await load();
      const refused =
        sync.refused > 0 ? ` The tool refused ${countOf(sync.refused, 'change')}; the next sync tries them again.` : '';
      set({ notice: `Written: ${countOf(sync.written, 'change')}.${refused}` });
    }),

  /**
   * Syncs a list again every `everyDays` (null: no more), writing its plans back only when asked, with the
   * choices ticked (the invalid members' step, the score fields, which members are read).
   */
  schedule: (
    name: string,
    audience: string,
    everyDays: 1 | 7 | 30 | null,
    choices: PlanChoices & { writeBack: boolean } = { ...verdictsOnly, writeBack: false },
    readChoice: ReadChoice = subscribedOnly,
  ) =>
    busyWhile(async () => {
      const { include, segment } = readChoice;
      set({
        page: await sift.connectors.schedule({ name, audience, everyDays, ...choices, include: [...include], segment }),
      });
      set({
        notice:
          everyDays === null
            ? `${name} · ${audience} is no longer synced on a schedule.`
            : `${name} · ${audience} is synced every ${everyDays === 1 ? 'day' : `${everyDays} days`} while Sift is open` +
              `${choices.writeBack ? ', its plans written back' : '; each plan waits here to be written'}.`,
      });
    }),

  discard: (syncId: number) =>
    busyWhile(async () => {
      set({ page: await sift.connectors.discard({ syncId }) });
      set({ notice: 'Set aside: nothing was written. The next read of the list starts afresh.' });
    }),
};
