// `sift sync`'s and `sift schedule`'s flags for which of a list's members a sync reads: Mailchimp's pending
// and transactional members on request (--include), and one segment or tag (--segment, an id `sift audiences
// NAME LIST` names). Without them a sync reads the list's subscribed members, as every tool does.
import {
  extraStatuses,
  subscribedOnly,
  toolNames,
  type Connector,
  type ReadChoice,
} from '../core/connectors/connector.ts';
import { CliExit, exitCodes } from './cli-io.ts';

/** The flags, for parseArgs. */
export const readChoiceOptions = {
  include: { type: 'string' },
  segment: { type: 'string' },
} as const;

type ReadChoiceValues = { include?: string; segment?: string };

/** The flags as a read choice, refused in words where they name no status or the tool reads lists whole. */
export function readChoiceOf(connector: Connector, values: ReadChoiceValues): ReadChoice {
  if (values.include === undefined && values.segment === undefined) return subscribedOnly;
  if (!connector.segments)
    throw new CliExit(
      exitCodes.usage,
      `--include and --segment are Mailchimp's: ${toolNames[connector.kind]} lists are read whole (their subscribed members).`,
    );
  const include = (values.include ?? '')
    .split(',')
    .map((status) => status.trim())
    .filter(Boolean);
  const unknown = include.filter((status) => !(extraStatuses as readonly string[]).includes(status));
  if (unknown.length > 0 || (values.include !== undefined && include.length === 0))
    throw new CliExit(
      exitCodes.usage,
      `--include takes ${extraStatuses.join(' and ')} (comma-separated)${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}: unsubscribed, cleaned and archived members are never read.`,
    );
  const segment = values.segment?.trim() ?? null;
  if (segment !== null && !/^\d{1,20}$/.test(segment))
    throw new CliExit(
      exitCodes.usage,
      `--segment takes a segment's or tag's id, as \`sift audiences NAME LIST\` names it.`,
    );
  return { include: [...new Set(include)] as ReadChoice['include'], segment };
}
