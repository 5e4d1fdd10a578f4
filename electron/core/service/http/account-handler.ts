// GET /account: the key's mode, the balance and the free checks left this month, and whether the
// service can reach mail servers, whether they refuse its sending address, and which shortcuts it offers (Sift's own extras).
import { accountSchema, shortcutFeatures } from '../../wire/assumptions.ts';
import { teamOutcomesFeature } from '../../wire/team-outcomes.ts';
import { accountState } from '../store/credits-store.ts';
import { port25Finding } from '../store/port25-store.ts';
import { senderFinding } from '../store/sender-refusals-store.ts';
import { senderField } from '../engines/live/sender-refusal.ts';
import { sendJson } from './error-responses.ts';
import type { Call, ServiceContext } from './service-context.ts';

export async function account(context: ServiceContext, call: Call): Promise<void> {
  const { db, config } = context;
  const state = await accountState(db, config, config.now());
  const sender = await senderFinding(db, config.now(), config.smtp.blockedAfterHosts);
  const body = accountSchema.parse({
    mode: call.key.mode,
    balance: state.balance,
    free_remaining: state.freeRemaining,
    key: { label: call.key.label, prefix: call.key.masked },
    port_25: (await port25Finding(db)).state,
    sender: senderField(sender),
    // All Sift's own: a client that knows the shortcuts sends a list in one upload and reads it in one
    // download; one that knows `outcomes` shares what it read back with the team (wire/team-outcomes.ts).
    features: [shortcutFeatures.files, shortcutFeatures.resultsCsv, teamOutcomesFeature],
  });
  sendJson(call.response, 200, body);
}
