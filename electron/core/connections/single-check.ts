// Checking one address now (POST /verify) on the service lists go to. An address that cannot be one is
// answered here without a call (and without a charge); the recent checks are kept in the settings file.
import { ServiceClientError } from '../client/client-errors.ts';
import { precheckAddress } from '../email/address-precheck.ts';
import { AppError } from '../../common/app-error.ts';
import { maxRecentChecks, type SettingsStorage, type SingleCheck } from './app-settings.ts';
import { problemOf } from './connection-test.ts';
import type { ServiceClients } from './service-ref.ts';

/** One address checked now on the service lists go to, and the recent checks. */
export type SingleChecks = {
  recent(): SingleCheck[];
  verify(email: string): Promise<SingleCheck>;
};

export function createSingleCheck(
  clients: ServiceClients,
  settings: SettingsStorage,
  now = () => new Date(),
): SingleChecks {
  function remember(check: SingleCheck): SingleCheck {
    const current = settings.read();
    settings.write({ ...current, recentChecks: [check, ...current.recentChecks].slice(0, maxRecentChecks) });
    return check;
  }

  return {
    recent: (): SingleCheck[] => settings.read().recentChecks,

    async verify(email: string): Promise<SingleCheck> {
      const typed = email.trim();
      const check = precheckAddress(typed);
      const checkedAt = now().toISOString();
      if (!check.ok) {
        const reason = check.reason === 'no_address' ? 'no_address' : 'bad_syntax';
        return remember({ email: typed, result: 'invalid', billed: false, reason, local: true, checkedAt });
      }
      try {
        const client = await clients.clientFor(await clients.current());
        const answer = await client.verify(check.address);
        return remember({
          email: answer.email,
          result: answer.result,
          billed: answer.billed,
          ...(typeof answer.role === 'boolean' ? { role: answer.role } : {}),
          ...(typeof answer.disposable === 'boolean' ? { disposable: answer.disposable } : {}),
          ...(typeof answer.reason === 'string' ? { reason: answer.reason } : {}),
          ...(check.suggestion ? { suggestion: check.suggestion } : {}),
          local: false,
          ...(client.mode === 'sandbox' ? { demo: true } : {}),
          checkedAt,
        });
      } catch (error) {
        if (error instanceof ServiceClientError) throw new AppError('service_error', problemOf(error).message);
        throw error;
      }
    },
  };
}
