import { DomainError } from '@svc/domain';

/** The strong ETag of a resource version: the version in quotes (spec 2.3). */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The version an If-Match header names, or undefined without the header. Only one strong ETag of our form is
 * meaningful; anything else (weak tags, lists, `*`, garbage) is 400 bad_if_match.
 */
export function versionFromIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = /^\s*"(\d{1,15})"\s*$/.exec(value);
  if (match?.[1] === undefined) {
    throw new DomainError(
      'bad_if_match',
      'If-Match must be one strong ETag as returned in ETag, for example "3".',
    );
  }
  return Number(match[1]);
}
