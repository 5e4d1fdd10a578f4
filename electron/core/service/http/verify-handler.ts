// POST /verify: one address now. Bad syntax is answered without a probe or a charge; a live check is
// charged once, after the probe, in the transaction that stores its idempotent answer, and only for a
// definitive verdict.
import { checkSyntax } from '../../email/syntax.ts';
import { verifyRequestSchema } from '../../wire/assumptions.ts';
import { billableResults, ProbeError } from '../engines/engine.ts';
import { verdictExtras } from '../batch-objects.ts';
import { invalidRequest } from '../service-errors.ts';
import { assertCanPay, reserveCredits } from '../store/credits-store.ts';
import { requestHash } from '../store/idempotency-store.ts';
import { idempotent, readJson } from './idempotent.ts';
import type { Call, ServiceContext } from './service-context.ts';

const verdictAnswer = (body: Record<string, unknown>) => ({ status: 200, body: JSON.stringify(body) });
const unflagged = { role: false, disposable: false };

export async function verify(context: ServiceContext, call: Call): Promise<void> {
  const { db, config, engines } = context;
  const { text, value } = await readJson(call.request, 64 * 1024);
  const parsed = verifyRequestSchema.safeParse(value);
  if (!parsed.success) throw invalidRequest('missing_email', 'The body must be JSON with a string field `email`.');
  await idempotent(context, call, requestHash('verify', text), async (settle) => {
    const email = parsed.data.email.trim();
    const syntax = checkSyntax(email);
    if (!syntax.ok) {
      return verdictAnswer({ email, result: 'invalid', billed: false, ...unflagged, reason: 'invalid_syntax' });
    }
    const live = call.key.mode === 'live';
    // Checked before the probe so an empty account is told at once; charged after it, once.
    if (live) await assertCanPay(db, config, config.now(), 1);
    let verdict;
    try {
      verdict = await engines[call.key.mode].verify(syntax.local, syntax.asciiDomain);
    } catch (error) {
      if (!(error instanceof ProbeError)) throw error;
      // A check that could not be made is not charged.
      return verdictAnswer({ email, result: 'unknown', billed: false, ...unflagged, reason: 'probe_failed' });
    }
    // Only a definitive verdict is charged: `unknown` never is.
    const billed = live && billableResults.has(verdict.result);
    return db.transaction(async (tx) => {
      if (billed) await reserveCredits(tx, config, config.now(), 1);
      const stored = verdictAnswer({
        email,
        result: verdict.result,
        billed,
        role: verdict.role,
        disposable: verdict.disposable,
        reason: verdict.reason,
        ...verdictExtras(verdict),
      });
      await settle(tx, stored);
      return stored;
    });
  });
}
