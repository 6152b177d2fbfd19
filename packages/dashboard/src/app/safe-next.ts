/**
 * The page to return to after signing in, from the `next` query parameter: only a path of this site (one
 * leading slash, no scheme or `//host`), so a crafted link cannot send a person elsewhere after sign-in.
 */
export function safeNext(next: string | null, fallback: string): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return fallback;
  return next;
}
