// Sift's two merge fields in a Mailchimp audience, only when the person asks for them: the score (SIFTSCORE,
// a number) and the date it was written (SIFTDATE, a date). Made once where the audience has room, found
// again by tag, and never written where a field of that tag is not Sift's (another name or type: a field a
// person made). Sources (mailchimp-marketing-typescript-sdk, src/api/resources/lists/client/requests/):
// - ListMergeFieldsListsRequest.ts: GET /lists/{list_id}/merge-fields, `count` at most 1000, `fields`.
// - CreateMergeFieldListsRequest.ts: POST …/merge-fields with `tag`, `name`, `type` (number, date, …),
//   `public` ("displayed on the signup form"), `required`, `options.date_format` for a date.
// - UpdateMemberListsRequest.ts: PATCH …/members/{subscriber_hash} with `merge_fields` keyed by tag;
//   "If skip_merge_validation is true, member data will be accepted without merge field values, even if the
//   merge field is usually required": a member missing a required field of the person's own is not refused
//   for it.
// Room: "Your list database will store up to 30 fields" (Mailchimp's knowledge base, kb.mailchimp.com/
// article/introduction-to-mailchimp-list-management/); Premium plans allow 80 (chimpmatic.com/
// mailchimp-audience-fields-and-merge-tags). Sift cannot know the plan, so it asks Mailchimp to make each field
// and takes a refusal as no room, said in words.
import { z } from 'zod';
import { ConnectorError } from './connector.ts';
import type { toolHttp } from './tool-http.ts';
import { toolPath, type ToolPath } from './tool-path.ts';

/** The fields as Sift makes them; a field of the same tag with another name or type is not Sift's. */
const scoreFields = [
  { tag: 'SIFTSCORE', name: 'Sift score', type: 'number' },
  { tag: 'SIFTDATE', name: 'Sift scored on', type: 'date', options: { date_format: 'MM/DD/YYYY' } },
] as const;

/** The date formats a Mailchimp date field may have, and a day written in each. */
const dayIn: Record<string, (day: Date) => string> = {
  'MM/DD/YYYY': (day) => `${pad(day.getUTCMonth() + 1)}/${pad(day.getUTCDate())}/${day.getUTCFullYear()}`,
  'DD/MM/YYYY': (day) => `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`,
};
const pad = (n: number) => String(n).padStart(2, '0');

const fieldsAnswer = z.object({
  merge_fields: z.array(
    z.object({
      tag: z.string(),
      name: z.string(),
      type: z.string(),
      options: z.object({ date_format: z.string().optional() }).partial().optional(),
    }),
  ),
});

/** Ready to write a score and its date, or why not, in words (each score change is refused with them). */
export type ScoreFieldsState =
  | { ready: true; mergeFields: (score: number) => Record<string, string | number> }
  | {
      ready: false;
      words: string;
    };

/** Finds Sift's fields in the audience, making those missing; answers how to write them, or why it cannot. */
export async function readyScoreFields(
  http: ReturnType<typeof toolHttp>,
  listPath: ToolPath,
  now = new Date(),
): Promise<ScoreFieldsState> {
  const { body } = await http.call(
    'GET',
    toolPath`${listPath}/merge-fields?count=1000&fields=merge_fields.tag,merge_fields.name,merge_fields.type,merge_fields.options`,
  );
  const found = http.parse(fieldsAnswer, body, "an audience's fields").merge_fields;
  let dateFormat: string = scoreFields[1].options.date_format;
  for (const wanted of scoreFields) {
    const there = found.find((field) => field.tag === wanted.tag);
    if (there) {
      const format = there.options?.date_format ?? dateFormat;
      if (there.name !== wanted.name || there.type !== wanted.type || (wanted.type === 'date' && !dayIn[format]))
        return {
          ready: false,
          words: `The audience has a field ${wanted.tag} Sift did not make ("${there.name}", ${there.type}): Sift never writes to it, so no score or date was written. Rename that field's tag to let Sift make its own.`,
        };
      if (wanted.type === 'date') dateFormat = format;
      continue;
    }
    try {
      await http.call('POST', toolPath`${listPath}/merge-fields`, {
        json: { ...wanted, public: false, required: false },
      });
    } catch (error) {
      if (!(error instanceof ConnectorError) || error.kind !== 'refused') throw error;
      return {
        ready: false,
        words: `Mailchimp would not make the field ${wanted.tag} (an audience has room for 30 fields, 80 on Premium): ${error.message}`,
      };
    }
  }
  const day = dayIn[dateFormat]!(now);
  return { ready: true, mergeFields: (score) => ({ SIFTSCORE: score, SIFTDATE: day }) };
}
