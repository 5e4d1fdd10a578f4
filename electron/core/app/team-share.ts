// The team's service, as the app's handlers reach it: the hosted service in use (Sift's own, run for a
// team), and what changed the outcomes here shared to it again, once this data folder has shared with it.
import type { ServiceClients } from '../connections/service-ref.ts';
import type { OutcomesView } from '../outcomes/index.ts';

export function teamShareFor(clients: ServiceClients, outcomes: Pick<OutcomesView, 'shareAgain'>) {
  /** The client of the team's service: the hosted service in use, when its key is there. */
  const teamClient = async () => {
    const ref = await clients.current();
    return ref.kind === 'hosted' ? clients.clientFor(ref).catch(() => undefined) : undefined;
  };
  return {
    teamClient,
    /**
     * Answers `done` once the change it stands for is shared too, where this folder has shared before: the
     * change is done either way, and a sharing that fails shows as an older "last shared" in History.
     */
    async thenShare<T>(done: T): Promise<T> {
      const team = await teamClient();
      if (team) await outcomes.shareAgain(team).catch(() => false);
      return done;
    },
  };
}
export type TeamShare = ReturnType<typeof teamShareFor>;
