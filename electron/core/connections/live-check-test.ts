// Can live checks reach mail servers from this computer? Asked on purpose from the first-run question and
// Settings: port 25 straight out, and through each proxy given, each named in the answer (never with its
// password). Nothing is recorded: the engine learns for itself once it works.
import type { LiveCheckTest } from '../../common/settings-schemas.ts';
import { checkSenderBlocklists } from '../service/engines/live/blocklist-lookup.ts';
import { probePort25, type Port25Check } from '../service/engines/live/port25-check.ts';
import { checkProxy, describeProxyCheck } from '../service/engines/live/proxy-check.ts';
import type { SmtpSettings } from '../service/engines/live/smtp-settings.ts';

/** A person waits for this answer: each step gets at most this long, whatever the engine's own timeout. */
const interactiveTimeoutMs = 8000;

function describeDirect(check: Port25Check, port: number): string {
  switch (check.state) {
    case 'open':
      return `From this computer: port ${port} is open (${check.host} answered).`;
    case 'blocked':
      return (
        `From this computer: port ${port} is blocked. No mail server answered (${check.hosts.join(', ')}); ` +
        'most home, office and cloud networks block it.'
      );
    case 'not_checked':
      return `From this computer: not checked (${check.reason}).`;
  }
}

export async function testLiveChecks(engine: SmtpSettings): Promise<LiveCheckTest> {
  const settings = { ...engine, timeoutMs: Math.min(engine.timeoutMs, interactiveTimeoutMs) };
  const [direct, proxies, blocklists] = await Promise.all([
    probePort25(settings),
    Promise.all(settings.proxies.map((proxy) => checkProxy(proxy, settings))),
    checkSenderBlocklists(settings, interactiveTimeoutMs),
  ]);
  return {
    direct: { state: direct.state, message: describeDirect(direct, settings.port) },
    proxies: proxies.map((check) => ({
      proxy: check.proxy,
      state: check.state,
      message: describeProxyCheck(check, settings.port),
    })),
    // With proxies set, every conversation goes through them: then only they count.
    usable: proxies.length > 0 ? proxies.some((check) => check.state === 'ok') : direct.state === 'open',
    blocklists,
  };
}
