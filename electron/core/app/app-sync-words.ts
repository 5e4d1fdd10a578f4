// The app's words for what stops a sync: a step refused by the rules of sync-steps.ts, and a tool's refusal
// or silence (a refused secret is `unauthorized`), each as the app's error, in words a person acts on.
import { AppError } from '../../common/app-error.ts';
import { readChoiceWords } from '../../common/connector-schemas.ts';
import { ConnectorError, toolNames } from '../connectors/connector.ts';
import { SyncStepRefusal } from '../connectors/sync-steps.ts';

/** A step of a sync refused, in the app's words. */
export function refusalWords(error: SyncStepRefusal): string {
  const { refusal } = error;
  if (refusal.kind === 'other_read')
    return `A sync of this list reading its ${readChoiceWords(refusal.reading)} is not finished: go on with it, or set it aside to read ${readChoiceWords(refusal.asked)}.`;
  if (refusal.kind === 'demo')
    return `Nothing is written to ${toolNames[refusal.tool]}: the list has demo verdicts, which no mail server gave.`;
  const chosen = refusal.choice === 'withInvalidStep' ? 'the step for invalid members' : "Sift's score fields";
  return refusal.has
    ? `the plan waiting has ${refusal.has}, which this schedule does not choose`
    : `the plan waiting was made without ${chosen}, which this schedule chooses`;
}

/**
 * A step's refusal or a tool's refusal or silence as the app's error: a refused step is `bad_request`, a
 * refused secret `unauthorized`, in the tool's words.
 */
function appErrorOf(error: unknown): unknown {
  if (error instanceof SyncStepRefusal) return new AppError('bad_request', refusalWords(error));
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
