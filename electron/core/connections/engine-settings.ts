// The Settings screen's live-check settings (in the units a person types: seconds, minutes) as the local
// engine takes them. What the person left empty keeps the engine's default; a proxy's password comes
// from the vault.
import type { EngineSettings } from '../../common/settings-schemas.ts';
import type { SmtpSettings } from '../service/engines/live/smtp-settings.ts';
import type { KeyVault } from './key-vault.ts';
import { proxyEndpointsOf } from './proxy-secrets.ts';

export function smtpSettingsOf(engine: EngineSettings, vault: KeyVault): Partial<SmtpSettings> {
  const { timeoutSeconds, greylistRetryMinutes, proxies, ...same } = engine;
  return {
    ...same,
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(greylistRetryMinutes === undefined ? {} : { greylistRetryMs: greylistRetryMinutes.map((m) => m * 60_000) }),
    ...(proxies === undefined ? {} : { proxies: proxyEndpointsOf(proxies, vault, true) }),
  };
}
