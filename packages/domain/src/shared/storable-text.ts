/** A UTF-16 surrogate code unit that is not half of a pair: with the `u` flag only unpaired ones match. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Why a string taken from a request cannot be stored and sent on as it is, or null when it can. Every text of a
 * request is checked with this one rule, whatever the schema of its field says:
 * - U+0000: PostgreSQL text and jsonb cannot hold it;
 * - ill-formed Unicode (a lone surrogate such as JSON `"\ud800"`): it has no UTF-8 form, so jsonb refuses its
 *   escape and every other store or client would receive a replacement character instead of what was sent.
 */
export function storableTextFault(text: string): string | null {
  if (text.includes('\u0000')) return 'Must not contain the NUL character (U+0000).';
  if (LONE_SURROGATE.test(text)) {
    return 'Must be well-formed Unicode: a lone UTF-16 surrogate (such as \\ud800) has no character.';
  }
  return null;
}
