// Sift's own extension (wire/team-outcomes.ts): POST /outcomes keeps what a person's Sift read back,
// GET /outcomes pages every change since a cursor, POST /outcomes/forget wipes a source for the team;
// POST /outcomes/catch-all keeps a folder's catch-all counts, and GET gives the other folders' added up.
import type { z } from 'zod';
import {
  forgetTeamSourceRequestSchema,
  shareCatchAllRequestSchema,
  teamCatchAllParams,
  type TeamCatchAllPage,
  shareOutcomesRequestSchema,
  teamOutcomesAfterParam,
  teamOutcomesPageLimit,
  type TeamOutcomesPage,
} from '../../wire/team-outcomes.ts';
import { invalidRequest } from '../service-errors.ts';
import { keepCatchAllCounts, teamCatchAllAfter } from '../store/team-catch-all-store.ts';
import { forgetTeamSource, keepTeamOutcomes, teamOutcomesAfter } from '../store/team-outcomes-store.ts';
import { sendJson } from './error-responses.ts';
import { readJson } from './idempotent.ts';
import type { Call, ServiceContext } from './service-context.ts';

async function bodyOf<Schema extends z.ZodType>(context: ServiceContext, call: Call, schema: Schema) {
  const { value } = await readJson(call.request, context.config.maxJsonBytes);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidRequest('invalid_outcomes', `${issue.path.join('.') || 'The body'}: ${issue.message}`);
  }
  return parsed.data as z.infer<Schema>;
}

export async function shareOutcomes(context: ServiceContext, call: Call): Promise<void> {
  const { outcomes } = await bodyOf(context, call, shareOutcomesRequestSchema);
  sendJson(call.response, 200, { stored: await keepTeamOutcomes(context.db, call.key.mode, outcomes) });
}

export async function forgetOutcomeSource(context: ServiceContext, call: Call): Promise<void> {
  const { source } = await bodyOf(context, call, forgetTeamSourceRequestSchema);
  sendJson(call.response, 200, { forgotten: await forgetTeamSource(context.db, call.key.mode, source) });
}

/** `SEQ:ID`, as the last page ended; empty for the start. */
function cursorOf(raw: string | null): { seq: number; id: string } {
  if (raw === null || raw === '') return { seq: 0, id: '' };
  const match = /^(\d{1,15}):(.*)$/s.exec(raw);
  if (!match) throw invalidRequest('invalid_cursor', `${teamOutcomesAfterParam} is not a cursor this service gave.`);
  return { seq: Number(match[1]), id: match[2]! };
}

/** The page size asked for, 1 to the most a page holds. */
function limitOf(call: Call): number {
  const rawLimit = call.url.searchParams.get('limit') ?? String(teamOutcomesPageLimit);
  const limit = Number(rawLimit);
  if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > teamOutcomesPageLimit)
    throw invalidRequest('invalid_limit', `limit must be a whole number from 1 to ${teamOutcomesPageLimit}.`);
  return limit;
}

export async function teamOutcomes(context: ServiceContext, call: Call): Promise<void> {
  const after = cursorOf(call.url.searchParams.get(teamOutcomesAfterParam));
  const limit = limitOf(call);
  const page = await teamOutcomesAfter(context.db, call.key.mode, after, limit);
  const body: TeamOutcomesPage = {
    data: page.data,
    next_after: page.last
      ? `${page.last.seq}:${page.last.id}`
      : (call.url.searchParams.get(teamOutcomesAfterParam) ?? ''),
    has_more: page.hasMore,
  };
  sendJson(call.response, 200, body);
}

export async function shareCatchAll(context: ServiceContext, call: Call): Promise<void> {
  const { origin, domains } = await bodyOf(context, call, shareCatchAllRequestSchema);
  sendJson(call.response, 200, { stored: await keepCatchAllCounts(context.db, call.key.mode, origin, domains) });
}

export async function teamCatchAll(context: ServiceContext, call: Call): Promise<void> {
  const except = call.url.searchParams.get(teamCatchAllParams.except) ?? '';
  const after = call.url.searchParams.get(teamCatchAllParams.after) ?? '';
  const page = await teamCatchAllAfter(context.db, call.key.mode, except, after, limitOf(call));
  const body: TeamCatchAllPage = {
    data: page.data,
    next_after: page.data.at(-1)?.domain ?? after,
    has_more: page.hasMore,
  };
  sendJson(call.response, 200, body);
}
