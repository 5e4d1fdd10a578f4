// A fast, non-cryptographic 32-bit hash of text, for addresses and domains by the million: FNV-1a over
// the characters, then murmur3's finaliser so every input bit reaches the low bits too. Nothing here is secret.

/** The FNV-1a state before any text. */
const fnvStart = 0x811c9dc5;

/** FNV-1a over `text`'s UTF-16 codes, going on from `state` (so pieces hash as their concatenation). */
export function fnv1a(text: string, state = fnvStart): number {
  for (let i = 0; i < text.length; i += 1) state = Math.imul(state ^ text.charCodeAt(i), 0x01000193);
  return state;
}

/** murmur3's finaliser: spreads `state`'s bits over all 32; an unsigned result. */
export function finalise32(state: number): number {
  state = Math.imul(state ^ (state >>> 16), 0x85ebca6b);
  state = Math.imul(state ^ (state >>> 13), 0xc2b2ae35);
  return (state ^ (state >>> 16)) >>> 0;
}
