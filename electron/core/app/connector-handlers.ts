// What main does for the Mailing tools screen's calls (app-syncs.ts and app-schedules.ts do the work).
import type { ConnectionsPage } from '../../common/connector-schemas.ts';
import type { Handlers } from './dispatch.ts';
import type { AppSchedules } from './app-schedules.ts';
import type { AppSyncs } from './app-syncs.ts';

type ConnectorCall = Extract<keyof Handlers, `connectors:${string}`>;

export function connectorHandlers(syncs: AppSyncs, schedules: AppSchedules): Pick<Handlers, ConnectorCall> {
  const withSchedules = (page: Omit<ConnectionsPage, 'schedules' | 'caughtUp'>): ConnectionsPage => ({
    ...page,
    schedules: schedules.views(),
    caughtUp: schedules.notice(),
  });
  return {
    'connectors:list': async () => withSchedules(await syncs.page()),
    'connectors:add': async (request) => withSchedules(await syncs.add(request)),
    'connectors:test': ({ name }) => syncs.test(name),
    'connectors:remove': async ({ name }) => {
      const page = await syncs.remove(name);
      schedules.forget(name);
      return withSchedules(page);
    },
    'connectors:audiences': ({ name }) => syncs.audiences(name),
    'connectors:segments': ({ name, audience }) => syncs.segments(name, audience),
    'connectors:bounces': ({ name, audience }) => syncs.bounces(name, audience),
    'connectors:read': ({ name, audience, listName, include, segment }) =>
      syncs.read(name, audience, listName, { include, segment }),
    'connectors:plan': ({ syncId, ...choices }) => syncs.plan(syncId, choices),
    'connectors:writeBack': ({ syncId }) => syncs.writeBack(syncId),
    'connectors:schedule': async ({ name, audience, everyDays, writeBack, include, segment, ...choices }) => {
      if (everyDays === null) schedules.off(name, audience);
      else schedules.set(name, audience, everyDays, writeBack, choices, { include, segment });
      return withSchedules(await syncs.page());
    },
    'connectors:refusals': ({ syncId }) => syncs.refusals(syncId),
    'connectors:discard': async ({ syncId }) => withSchedules(await syncs.discard(syncId)),
  };
}
