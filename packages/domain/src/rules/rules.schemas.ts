import { z } from 'zod';
import { normaliseIpAddress } from '../ecs/ecs.js';
import { DomainError } from '../shared/domain-error.js';
import { normaliseDomainName, normaliseRulePattern } from './rule-pattern.js';

/** Longest pattern or answer text accepted before normalisation (a 253-character name, a prefix, spaces). */
const RULE_TEXT_MAX_LENGTH = 300;

/**
 * Rules a profile may hold in deny, allow and rewrites together: the plan's limit (ROUTES.md, 422
 * too_many_rules). The server passes the configured value to {@link assertWithinRuleLimit}.
 */
export const RULES_LIMIT_DEFAULT = 1000;

/**
 * A rule pattern (spec 2.4), parsed to its normal form; see rule-pattern.ts for the forms and the rules. The
 * schema stays a plain string in both directions (it checks and then rewrites the value in place), so it can
 * be shown in the OpenAPI document as such.
 */
export const RulePattern = z
  .string()
  .max(RULE_TEXT_MAX_LENGTH, `must be at most ${RULE_TEXT_MAX_LENGTH} characters`)
  .superRefine((value, context) => {
    if (value.length > RULE_TEXT_MAX_LENGTH) return;
    const result = normaliseRulePattern(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.message, input: value });
  })
  .overwrite((value) => {
    const result = normaliseRulePattern(value);
    return result.ok ? result.pattern : value;
  })
  .meta({
    description:
      'A domain name and its subdomains (`example.com`), exactly one name (`=example.com`) or only the ' +
      'subdomains of a name (`*.example.com`). Stored lower case, as IDNA A-labels, without a trailing dot.',
    example: 'ads.example.com',
  });
export type RulePattern = z.infer<typeof RulePattern>;

/** What a rewrite answers with: an A record, an AAAA record, or a CNAME to a host name. */
type RewriteAnswerKind = 'ipv4' | 'ipv6' | 'cname';

/** Outcome of {@link normaliseRewriteAnswer}. */
export type RewriteAnswerResult =
  | { ok: true; kind: RewriteAnswerKind; answer: string }
  | { ok: false; message: string };

const ANSWER_HINT = 'an IPv4 address (192.0.2.1), an IPv6 address (2001:db8::1) or a host name (example.com)';

/**
 * Normalises a rewrite answer: IPv4 in dotted decimal, IPv6 in RFC 5952 form (lower case, compressed), a host
 * name like a pattern without a prefix. Text of digits and dots is always read as IPv4, so `1.2.3` is refused
 * rather than taken for a name.
 */
export function normaliseRewriteAnswer(input: string): RewriteAnswerResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: `must not be empty; use ${ANSWER_HINT}` };
  if (text.includes(':')) {
    const answer = normaliseIpAddress(text);
    if (answer !== null) return { ok: true, kind: 'ipv6', answer };
    return {
      ok: false,
      message:
        'must be an IPv6 address without brackets or zone (2001:db8::1), an IPv4 address (192.0.2.1) or a host name (example.com)',
    };
  }
  if (/^[0-9.]+$/.test(text)) {
    const answer = normaliseIpAddress(text);
    if (answer !== null) return { ok: true, kind: 'ipv4', answer };
    return {
      ok: false,
      message:
        'must be an IPv4 address of four numbers 0 to 255 without leading zeros (192.0.2.1), an IPv6 address (2001:db8::1) or a host name (example.com)',
    };
  }
  const name = normaliseDomainName(text);
  if (name.ok) return { ok: true, kind: 'cname', answer: name.name };
  return { ok: false, message: `${name.message}; a rewrite answers with ${ANSWER_HINT}` };
}

/** The answer of a rewrite rule, normalised (see {@link normaliseRewriteAnswer}). */
export const RewriteAnswer = z
  .string()
  .max(RULE_TEXT_MAX_LENGTH, `must be at most ${RULE_TEXT_MAX_LENGTH} characters`)
  .superRefine((value, context) => {
    if (value.length > RULE_TEXT_MAX_LENGTH) return;
    const result = normaliseRewriteAnswer(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.message, input: value });
  })
  .overwrite((value) => {
    const result = normaliseRewriteAnswer(value);
    return result.ok ? result.answer : value;
  })
  .meta({
    description:
      'An IPv4 address (A record), an IPv6 address (AAAA record, stored in RFC 5952 form) or a host name ' +
      '(CNAME target, stored like a pattern).',
    example: '192.0.2.1',
  });
export type RewriteAnswer = z.infer<typeof RewriteAnswer>;

/**
 * A rewrite rule: queries the pattern covers are answered with `answer`. Logs show its pattern behind a `=`
 * (an exact-form pattern, `=name`, already starts with one).
 */
export const RewriteRule = z
  .object({ pattern: RulePattern, answer: RewriteAnswer })
  .meta({ id: 'RewriteRule' });
export type RewriteRule = z.infer<typeof RewriteRule>;

/** The first occurrence of each key, in order. */
function firstOccurrences<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const itemKey = key(item);
    if (seen.has(itemKey)) return false;
    seen.add(itemKey);
    return true;
  });
}

/**
 * All rules of a profile (ROUTES.md `GET, PUT /v1/profiles/{id}/rules`); a PUT replaces all three lists in one
 * version bump. A missing list is empty. Duplicates within a list, compared in normal form, are dropped,
 * keeping the first occurrence and the order: `Example.com` and `example.com.` are one rule. Two rewrites
 * are duplicates only when pattern and answer both match: one pattern may have several answers (an A and an
 * AAAA, or several A records). A pattern may be both denied and allowed; allow wins at the edge.
 */
export const ProfileRules = z
  .object({
    deny: z
      .array(RulePattern)
      .overwrite((patterns) => firstOccurrences(patterns, (pattern) => pattern))
      .default([])
      .meta({ description: 'Names to block.' }),
    allow: z
      .array(RulePattern)
      .overwrite((patterns) => firstOccurrences(patterns, (pattern) => pattern))
      .default([])
      .meta({ description: 'Names not blocked; a name both denied and allowed is allowed.' }),
    rewrites: z
      .array(RewriteRule)
      .overwrite((rules) => firstOccurrences(rules, (rule) => `${rule.pattern} ${rule.answer}`))
      .default([])
      .meta({ description: 'Names answered with a fixed address or host name.' }),
  })
  .meta({ id: 'ProfileRules' });
export type ProfileRules = z.infer<typeof ProfileRules>;

/** Rules counted against the plan's limit: every entry of the three lists after deduplication. */
export function countRules(rules: ProfileRules): number {
  return rules.deny.length + rules.allow.length + rules.rewrites.length;
}

/**
 * Throws 422 too_many_rules when `rules` hold more than `limit` rules, with a field error on each non-empty
 * list saying how many it holds, so a client can show the message beside the list to shorten.
 */
export function assertWithinRuleLimit(rules: ProfileRules, limit: number = RULES_LIMIT_DEFAULT): void {
  const count = countRules(rules);
  if (count <= limit) return;
  const lists = [
    ['deny', rules.deny.length],
    ['allow', rules.allow.length],
    ['rewrites', rules.rewrites.length],
  ] as const;
  throw new DomainError('too_many_rules', `A profile may hold at most ${limit} rules; these are ${count}.`, {
    fieldErrors: lists
      .filter(([, length]) => length > 0)
      .map(([field, length]) => ({
        field,
        message: `holds ${length} of ${count} rules; deny, allow and rewrites together may hold at most ${limit}`,
      })),
  });
}
