// Mailman 3's outcomes of a list: the members whose delivery its bounce processor turned off. Mailman counts
// a bounce score per member (a hard bounce 1, a soft one 0.5, at most once a day) and disables delivery
// when it passes the list's `bounce_score_threshold` (default 5): `delivery_status` `by_bounces`. Read with
// GET /3.1/members/find?list_id=…&role=member&delivery_status=by_bounces (Mailman 3.3.8's rest/members.py,
// FindMembers: list_id, role, delivery_status, count, page), each member with `bounce_score` and
// `last_bounce_received` (the member resource's fields in the same module). Mailman keeps no "changed
// since": every read asks for all of them, and the outcome store keeps each once.
import { z } from 'zod';
import type { BounceReader } from './tool-bounces.ts';
import type { ToolHttp } from './tool-http.ts';
import { toolPath } from './tool-path.ts';

const pageSize = 500;

const foundAnswer = z.object({
  total_size: z.number(),
  entries: z
    .array(
      z.object({
        email: z.string(),
        bounce_score: z.number().optional(),
        last_bounce_received: z.string().optional(),
      }),
    )
    .optional(),
});

export function mailmanBounces(http: ToolHttp): BounceReader {
  return async (audience, cursor) => {
    const page = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 1;
    const { body } = await http.call(
      'GET',
      toolPath`/members/find?list_id=${audience}&role=member&delivery_status=by_bounces&count=${pageSize}&page=${page}`,
    );
    const found = http.parse(foundAnswer, body, 'members disabled by bounces');
    const entries = found.entries ?? [];
    const bounces = entries.map((entry) => {
      // Mailman writes its times without a zone: they are UTC (mailman.utilities.datetime.now).
      const at = entry.last_bounce_received
        ? Date.parse(`${entry.last_bounce_received.replace(/Z?$/, '')}Z`)
        : Number.NaN;
      return {
        email: entry.email,
        kind: 'hard' as const,
        at: Number.isFinite(at) ? at : 0,
        words: `delivery disabled by Mailman's bounce processing${entry.bounce_score !== undefined ? ` (bounce score ${entry.bounce_score})` : ''}`,
      };
    });
    const more = page * pageSize < found.total_size && entries.length > 0;
    return { bounces, sends: [], next: more ? String(page + 1) : '1', done: !more };
  };
}
