// The Settings screen's calls and the account badge's: which service lists go to, and its account.
// Every answer comes from connections.view(), which holds a key's masked form only.
import type { Connections } from '../connections/connections.ts';
import type { Emit } from './event-hub.ts';
import type { Handlers } from './dispatch.ts';
import type { SingleChecks } from '../connections/single-check.ts';

type SettingsCall =
  | 'settings:get'
  | 'settings:testConnection'
  | 'settings:saveHosted'
  | 'settings:useOwn'
  | 'settings:setSharing'
  | 'settings:setEngine'
  | 'settings:testLiveChecks'
  | 'settings:checkHelo'
  | 'settings:setAppearance'
  | 'settings:forgetHosted'
  | 'account:get'
  | 'checks:verify'
  | 'checks:recent';

export function settingsHandlers(
  connections: Connections,
  checks: SingleChecks,
  emit: Emit,
): Pick<Handlers, SettingsCall> {
  return {
    'settings:get': async () => connections.view(),
    'settings:testConnection': async (request) => connections.test(request),
    'settings:saveHosted': async (request) => connections.saveHosted(request),
    'settings:useOwn': async ({ mode }) => connections.useOwn(mode),
    'settings:setSharing': async (sharing) => connections.setSharing(sharing),
    'settings:setEngine': async (engine) => connections.setEngine(engine),
    'settings:testLiveChecks': async (request) => connections.testLiveChecks(request),
    'settings:checkHelo': async ({ helo }) => connections.checkHelo(helo),
    'settings:setAppearance': async ({ appearance }) => {
      const view = connections.setAppearance(appearance);
      emit('settings:didChangeAppearance', { appearance });
      return view;
    },
    'settings:forgetHosted': async () => connections.forgetHosted(),
    'account:get': async () => connections.account(),
    'checks:verify': async ({ email }) => checks.verify(email),
    'checks:recent': async () => checks.recent(),
  };
}
