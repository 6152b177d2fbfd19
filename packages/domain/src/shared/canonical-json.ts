/**
 * Compact canonical JSON: object keys sorted by UTF-16 code units at every depth, arrays in order, no
 * whitespace (JSON.stringify's number and string forms). Both sides of a signature compute the same text:
 * signed profiles (nodes) and signed operator files (filtering) alike, hence shared.
 */
export function compactCanonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
