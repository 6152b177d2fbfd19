/**
 * A profile version to write against: the number in `profile.version` (the version is the strong ETag, spec
 * 2.3), or the ETag text as answered (`"7"`). A string of digits alone counts as the version number.
 */
export type IfMatch = number | string;

/** The If-Match header for a version or an ETag: `7`, `'7'` and `'"7"'` all give `"7"`. */
export function ifMatchHeader(value: IfMatch): string {
  if (typeof value === 'number') return `"${value}"`;
  return /^\d+$/.test(value) ? `"${value}"` : value;
}

/** The version a strong ETag of the API names (`"7"` → 7), or undefined for anything else. */
export function versionOfEtag(etag: string | undefined): number | undefined {
  const match = /^"(\d{1,15})"$/.exec(etag ?? '');
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Headers carrying an optional If-Match, for the writes that take one. */
export function ifMatchHeaders(ifMatch: IfMatch | undefined): Record<string, string> {
  return ifMatch === undefined ? {} : { 'if-match': ifMatchHeader(ifMatch) };
}

/** Options of a write guarded by the profile's version (spec 4.1.4). */
export interface IfMatchOptions {
  /**
   * Write only if the profile is still at this version: `profile.version`, or the ETag of an earlier answer
   * (`(await call.withResponse()).etag`). Otherwise 412 `version_mismatch` and nothing changes. Omitted, the
   * write applies whatever the version.
   */
  ifMatch?: IfMatch;
}
