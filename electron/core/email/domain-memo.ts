// Answers about domains, worked out once per domain: a list has far fewer domains than addresses, and
// the IDN conversion, the list lookups and the hashing cost more than finding a remembered answer.
const defaultMaxDomains = 50_000;

/** `answer` with a bounded memory of its answers (forgotten all at once when full). */
export function memoByDomain<T>(answer: (domain: string) => T, maxDomains = defaultMaxDomains): (domain: string) => T {
  const answers = new Map<string, T>();
  return (domain) => {
    const known = answers.get(domain);
    if (known !== undefined) return known;
    const fresh = answer(domain);
    if (answers.size >= maxDomains) answers.clear();
    // A copy as the key: `domain` is often a slice of a cell, and a slice keeps its whole chunk of text alive.
    answers.set(Buffer.from(domain).toString(), fresh);
    return fresh;
  };
}
