// The app's words for what stops a sync: a step refused by the rules of sync-steps.ts, and a tool's refusal
// or silence (a refused secret is `unauthorized`), each as the app's error, in words a person acts on.
import { AppError } from '../../common/app-error.ts';
import { readChoiceWords } from '../../common/connector-schemas.ts';
import { ConnectorError, toolNames, type ConnectorKind, type ReadChoice } from '../connectors/connector.ts';
import type { SyncStepRefusal } from '../connectors/sync-steps.ts';

/** A step of a sync refused, in the app's words. */
export function refusalWords(error: SyncStepRefusal, kind: ConnectorKind, asked?: ReadChoice): string {
  const { refusal } = error;
  if (refusal.kind === 'other_read')
    return `A sync of this list reading its ${readChoiceWords(refusal.reading)} is not finished: go on with it, or set it aside to read ${asked ? readChoiceWords(asked) : 'other members'}.`;
  if (refusal.kind === 'demo')
    return `Nothing is written to ${toolNames[kind]}: the list has demo verdicts, which no mail server gave.`;
  const chosen = refusal.choice === 'withInvalidStep' ? 'the step for invalid members' : "Sift's score fields";
  return refusal.has
    ? `the plan waiting has ${refusal.has}, which this schedule does not choose`
    : `the plan waiting was made without ${chosen}, which this schedule chooses`;
}

/** A tool's refusal or silence as the app's error: a refused secret is `unauthorized`, in the tool's words. */
function appErrorOf(error: unknown): unknown {
  if (!(error instanceof ConnectorError)) return error;
  const code = { authentication: 'unauthorized', not_found: 'not_found' }[error.kind as string] ?? 'service_error';
  return new AppError(code as 'unauthorized' | 'not_found' | 'service_error', error.message);
}

export const inWords = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw appErrorOf(error);
  }
};
