import { z } from 'zod';

/** Identifier of a catalogue entry or source: the parental service id pattern of spec 2.7. */
const CATALOGUE_ID_PATTERN = /^[a-z0-9-]{1,64}$/;

/** A catalogue identifier (`youtube`, `social-networks`, `hagezi-tif`). */
export const CatalogueId = z
  .string()
  .regex(CATALOGUE_ID_PATTERN, 'must be 1 to 64 characters of a-z, 0-9 and -');

/** A list id: the number resolvers, list reports and profile documents know a list by (at most 65535). */
export const ListId = z.int().min(1).max(65535);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why `name` is not a suffix rule the resolvers can load, or undefined when it is one: lower case, no
 * trailing dot, at most 253 characters, at least two labels of letters, digits and inner hyphens, and a
 * top-level label that is not all digits (an IP address is not a domain).
 */
export function suffixDomainProblem(name: string): string | undefined {
  if (name !== name.toLowerCase()) return 'must be lower case';
  if (name.endsWith('.')) return 'must not end with a dot';
  if (name.length > 253) return 'must be at most 253 characters';
  const labels = name.split('.');
  if (labels.length < 2) return 'must have at least two labels';
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) return `has an invalid label "${bad}"`;
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return 'must not end in a numeric label';
  return undefined;
}

/** A suffix rule: blocks the name and everything under it (spec 2.7 `domains`). */
export const SuffixDomain = z
  .string()
  .refine((name) => suffixDomainProblem(name) === undefined, {
    error: (issue) => `"${String(issue.input)}" ${suffixDomainProblem(String(issue.input)) ?? 'is invalid'}`,
  })
  .meta({
    description: 'Domain name, lower case, no trailing dot; blocks the name and every name under it.',
  });

/**
 * SPDX licence identifiers the catalogues may name. Anything else must be a custom `LicenseRef-…` reference
 * with a licence_url, so that an identifier is never invented.
 */
const SPDX_LICENCE_IDS: ReadonlySet<string> = new Set([
  'Apache-2.0',
  'BSD-3-Clause',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC-BY-NC-4.0',
  'CC-BY-SA-3.0',
  'CC-BY-SA-4.0',
  'CC0-1.0',
  'GPL-3.0-only',
  'GPL-3.0-or-later',
  'ISC',
  'MIT',
  'MPL-2.0',
  'Unlicense',
]);

const LICENCE_REF = /^LicenseRef-[A-Za-z0-9.-]+$/;

/** True for a known SPDX id, a `LicenseRef-…` reference, or a choice of those joined by ` OR ` (dual licences). */
export function isLicenceExpression(value: string): boolean {
  return value.split(' OR ').every((term) => SPDX_LICENCE_IDS.has(term) || LICENCE_REF.test(term));
}

/** The licence of a source: SPDX (dual licences as `A OR B`) or a custom `LicenseRef-…` reference. */
export const LicenceExpression = z
  .string()
  .refine(isLicenceExpression, {
    error: (issue) =>
      `"${String(issue.input)}" is neither a known SPDX id nor a LicenseRef- reference (dual licences: "A OR B")`,
  })
  .meta({
    description: 'SPDX licence id or expression, or `LicenseRef-…` for a custom licence.',
    example: 'MIT',
  });

/** An http(s) address. */
export const WebAddress = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

const REPOSITORY_ADDRESS = /^repo:[A-Za-z0-9._/-]+$/;

/** Where a source is fetched from: upstream (http or https) or a file in this repository (`repo:<path>`). */
export const SourceAddress = z
  .string()
  .refine((value) => REPOSITORY_ADDRESS.test(value) || WebAddress.safeParse(value).success, {
    error: 'must be an http(s) URL or repo:<path> of a curated file in this repository',
  })
  .meta({ description: 'Upstream address, or `repo:<path>` for a list curated in this repository.' });

/** True when `value` is `repo:<path>`: a list curated in this repository. */
export function isRepositoryAddress(value: string): boolean {
  return REPOSITORY_ADDRESS.test(value);
}

/** True when `value` is a real calendar date written YYYY-MM-DD. */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Last review date of an entry: YYYY-MM-DD, or empty when unknown. */
export const ReviewDate = z
  .string()
  .refine((value) => value === '' || isCalendarDate(value), { error: 'must be YYYY-MM-DD or empty' })
  .meta({ description: 'Last review date (YYYY-MM-DD); empty when unknown.', example: '2026-11-23' });
