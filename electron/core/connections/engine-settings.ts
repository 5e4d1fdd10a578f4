// The Settings screen's live-check settings (in the units a person types: seconds, minutes) as the local
// engine takes them. What the person left empty keeps the engine's default.
import type { EngineSettings } from '../../common/settings-schemas.ts';
import type { SmtpSettings } from '../service/engine/smtp-settings.ts';

export function smtpSettingsOf(engine: EngineSettings): Partial<SmtpSettings> {
  const { timeoutSeconds, greylistRetryMinutes, ...same } = engine;
  return {
    ...same,
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(greylistRetryMinutes === undefined ? {} : { greylistRetryMs: greylistRetryMinutes.map((m) => m * 60_000) }),
  };
}
