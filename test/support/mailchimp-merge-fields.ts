// Merge fields (audience fields) in the project's Mailchimp test server (mailchimp-server.ts), with the rules
// its header cites: FNAME, LNAME, ADDRESS and PHONE made with every audience; 30 fields at most; a tag made
// once; `public: false` kept; on a member's PATCH, a number field given no number and, unless
// `skip_merge_validation=true`, a required field left empty refused with the field named.

export type ChimpField = {
  tag: string;
  name: string;
  type: string;
  required?: boolean;
  public?: boolean;
  options?: { date_format?: string };
};

/** The fields every audience is made with. */
export const defaultFields = (): ChimpField[] =>
  ['FNAME', 'LNAME', 'ADDRESS', 'PHONE'].map((tag) => ({
    tag,
    name: tag,
    type: tag === 'ADDRESS' ? 'address' : 'text',
  }));

/** POST …/merge-fields: the field made, or the refusal's words. */
export function madeField(
  fields: readonly ChimpField[],
  body: ChimpField & { public?: boolean },
): { field: ChimpField } | { refused: string } {
  if (fields.length >= 30) return { refused: "This audience has 30 fields, its most (this server's words)." };
  if (fields.some((field) => field.tag === body.tag))
    return { refused: `A field with the tag ${body.tag} is there (this server's words).` };
  return {
    field: {
      tag: body.tag,
      name: body.name,
      type: body.type,
      required: body.required === true,
      // Shown on signup forms unless made with `public: false` (CreateMergeFieldListsRequest.ts).
      public: body.public !== false,
      ...(body.options ? { options: body.options } : {}),
    },
  };
}

/** What a member's PATCH of `given` (its fields `after` it) is refused for, field by field; none: taken. */
export function mergeFieldErrors(
  fields: readonly ChimpField[],
  given: Record<string, string | number>,
  after: Record<string, string | number>,
  skipValidation: boolean,
): { field: string; message: string }[] {
  return [
    ...Object.entries(given).flatMap(([tag, value]) => {
      const field = fields.find((each) => each.tag === tag);
      if (!field) return [{ field: tag, message: "This field does not exist (this server's words)" }];
      return field.type === 'number' && Number.isNaN(Number(value))
        ? [{ field: tag, message: 'Please enter a number' }]
        : [];
    }),
    ...(skipValidation
      ? []
      : fields
          .filter((field) => field.required && !after[field.tag])
          .map((field) => ({ field: field.tag, message: 'Please enter a value' }))),
  ];
}
