// Property values checked as HubSpot checks them on a write, for the project's HubSpot test server
// (hubspot-server.ts): an enumeration takes only its options' values, a number a number, a date a day
// (YYYY-MM-DD, or midnight UTC in epoch milliseconds), a bool true or false; an empty value clears any
// property. A refusal is HubSpot's 400 "Property values were not valid" with each value's `isValid`,
// `message`, `error` and `name`: INVALID_OPTION and its "… was not one of the allowed options: […]" are
// HubSpot's words (its answers as gitcoinco/code_fund_ads#479 and gregorspan/csc-frodx#21 quote them); the
// words for numbers, dates and bools are this server's.

/** What a property takes: its type and, for an enumeration, its options' values. */
export type PropertyType = { type: 'string' | 'number' | 'date' | 'bool' | 'enumeration'; options?: string[] };

/** The built-in contact properties the tests use, as HubSpot defines them. */
export const builtInTypes: Record<string, PropertyType> = {
  email: { type: 'string' },
  firstname: { type: 'string' },
  lastname: { type: 'string' },
  lifecyclestage: {
    type: 'enumeration',
    options: [
      'subscriber',
      'lead',
      'marketingqualifiedlead',
      'salesqualifiedlead',
      'opportunity',
      'customer',
      'evangelist',
      'other',
    ],
  },
  hs_email_optout: { type: 'bool' },
};

/** A property Sift made, as its definition gives it. */
export const typeOf = (definition: { type?: string; options?: { value: string }[] }): PropertyType => ({
  type: (definition.type ?? 'string') as PropertyType['type'],
  ...(definition.options ? { options: definition.options.map((option) => option.value) } : {}),
});

function problemOf(value: string, property: PropertyType): { message: string; error: string } | null {
  if (value === '') return null;
  if (property.type === 'enumeration' && !property.options?.includes(value))
    return {
      message: `${value} was not one of the allowed options: [${property.options?.join(', ')}]`,
      error: 'INVALID_OPTION',
    };
  if (property.type === 'number' && !/^-?\d+(\.\d+)?$/.test(value))
    return { message: `${value} is not a number (this server's words)`, error: 'INVALID_NUMBER' };
  if (property.type === 'date') {
    const day = /^\d{4}-\d\d-\d\d$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number(value);
    if (!Number.isFinite(day) || day % 86_400_000 !== 0)
      return { message: `${value} is not a day at midnight UTC (this server's words)`, error: 'INVALID_DATE' };
  }
  if (property.type === 'bool' && value !== 'true' && value !== 'false')
    return { message: `${value} is not true or false (this server's words)`, error: 'INVALID_BOOL' };
  return null;
}

/** HubSpot's words for the first write whose values it would refuse, or undefined when it takes them all. */
export function refusedValues(
  inputs: readonly { properties: Record<string, string> }[],
  types: ReadonlyMap<string, PropertyType>,
): string | undefined {
  for (const input of inputs) {
    const results = Object.entries(input.properties).flatMap(([name, value]) => {
      const problem = problemOf(String(value), types.get(name) ?? { type: 'string' });
      return problem ? [{ isValid: false, ...problem, name, localizedErrorMessage: problem.message }] : [];
    });
    if (results.length > 0) return `Property values were not valid: ${JSON.stringify(results)}`;
  }
  return undefined;
}
