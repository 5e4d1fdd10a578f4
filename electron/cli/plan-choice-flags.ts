// `sift sync`'s and `sift schedule`'s flags for what a plan takes besides what the verdicts call for: each
// tool's step for invalid members (--archive-invalid, --unsubscribe-invalid, --list-invalid) and Mailchimp's
// score fields (--merge-fields). A plan waiting is written exactly as it was planned, so a writing must give
// the same flags: neither is ever taken unless asked for at the writing too.
import {
  invalidStepFlags,
  scoreFieldsFlag,
  toolNames,
  type Connector,
  type PlanChoices,
} from '../core/connectors/connector.ts';
import { CliExit, exitCodes } from './cli-io.ts';

/** The flags, for parseArgs. */
export const planChoiceOptions = {
  'archive-invalid': { type: 'boolean', default: false },
  'unsubscribe-invalid': { type: 'boolean', default: false },
  'list-invalid': { type: 'boolean', default: false },
  'merge-fields': { type: 'boolean', default: false },
} as const;

type PlanChoiceValues = Partial<Record<keyof typeof planChoiceOptions, boolean>>;

const asked = (values: PlanChoiceValues) =>
  Object.values(invalidStepFlags).filter((flag) => values[flag.slice(2) as keyof PlanChoiceValues] === true);

/** The flags as plan choices, refused in words where the tool takes another step or has no fields. */
export function planChoicesOf(connector: Connector, values: PlanChoiceValues): PlanChoices {
  if (values['merge-fields'] && !connector.offersScoreFields)
    throw new CliExit(
      exitCodes.usage,
      `--merge-fields is Mailchimp's: ${toolNames[connector.kind]} keeps no score fields of Sift's${connector.kind === 'hubspot' ? ' besides its sift_score property, which every sync writes' : ''}.`,
    );
  const steps = asked(values);
  const own = invalidStepFlags[connector.invalidStep];
  if (steps.length > 1 || (steps.length === 1 && steps[0] !== own)) {
    const hubspot =
      connector.kind === 'hubspot'
        ? "HubSpot's unsubscribe cannot be undone by the sender, so Sift never makes it; "
        : '';
    throw new CliExit(
      exitCodes.usage,
      `${steps.join(' ')}: ${hubspot}${toolNames[connector.kind]}'s step for invalid members is ${own}.`,
    );
  }
  return { withInvalidStep: steps.length === 1, withScoreFields: values['merge-fields'] === true };
}

/** The flag of each choice. */
const flagOf = (connector: Connector): Record<keyof PlanChoices, string> => ({
  withInvalidStep: invalidStepFlags[connector.invalidStep],
  withScoreFields: scoreFieldsFlag,
});

/** A plan waiting is written as planned: the words for one a run chose otherwise, with the flag that would go on. */
export function planChoiceExit(connector: Connector, choice: keyof PlanChoices, has: string | null): CliExit {
  const flag = flagOf(connector)[choice];
  return new CliExit(
    exitCodes.usage,
    has
      ? `The plan waiting has ${has}: give ${flag} again to write it, or --restart to plan again without.`
      : `The plan waiting was made without ${flag}: run without it to write that plan, or with --restart ${flag} to plan again.`,
  );
}
