import type { ListFormat } from '../catalogue/list-format.js';
import { parseIpAddress } from '../ecs/ecs.js';
import type { EntryForm } from '../filtering/entry-forms.js';
import { normaliseListName } from './list-name.js';

/** Longest line read; a longer one is invalid (and never held whole in memory). */
export const LIST_LINE_MAX_LENGTH = 4096;

/** What a list line was. */
export type ListLineOutcome =
  | { kind: 'blank' | 'comment' | 'entry' }
  | { kind: 'ignored' | 'invalid'; reason: string };

/** Receives the entries of a line. */
export interface ListEntrySink {
  entry(name: string, form: EntryForm, exception: boolean): void;
}

const BLANK: ListLineOutcome = { kind: 'blank' };
const COMMENT: ListLineOutcome = { kind: 'comment' };
const ENTRY: ListLineOutcome = { kind: 'entry' };

/** Cosmetic and scriptlet markers of Adblock-style lists: rules for pages, not for DNS. */
const COSMETIC_MARKERS = ['##', '#@#', '#?#', '#$#', '#%#', '#@?#', '#@$#', '$$'];
/**
 * Modifiers a DNS-level blocker can drop and still block what the list means (AdGuard's hostlist compiler
 * removes the same ones); `important` changes only priority among lists, which a single list does not have.
 */
const HARMLESS_MODIFIERS: ReadonlySet<string> = new Set([
  'important',
  'third-party',
  '3p',
  'document',
  'doc',
  'all',
  'popup',
  'network',
]);
/** Common blocking addresses of hosts files, checked before parsing an address. */
const HOSTS_ADDRESSES: ReadonlySet<string> = new Set(['0.0.0.0', '127.0.0.1', '::', '::1', '0']);

function ignored(reason: string): ListLineOutcome {
  return { kind: 'ignored', reason };
}

function invalid(reason: string): ListLineOutcome {
  return { kind: 'invalid', reason };
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

/** One name of a line, normalised and passed on; the outcome when it is not an entry. */
function addName(
  raw: string,
  form: EntryForm,
  exception: boolean,
  sink: ListEntrySink,
): ListLineOutcome | undefined {
  const name = normaliseListName(raw);
  if (!name.ok) return name.kind === 'ignored' ? ignored(name.message) : invalid(`"${raw}" ${name.message}`);
  sink.entry(name.name, form, exception);
  return undefined;
}

/**
 * An Adblock-style network rule (after any `@@`): `||name^` (the name and everything under it) and `|name^`
 * (exactly the name), optionally ending `|` and with modifiers a DNS blocker can drop. Anything else (paths,
 * wildcards, regular expressions, modifiers that narrow the rule) is not a DNS rule and is ignored.
 */
function adblockRule(rule: string, exception: boolean, sink: ListEntrySink): ListLineOutcome {
  let body = rule;
  const dollar = body.indexOf('$');
  if (dollar !== -1) {
    for (const modifier of body.slice(dollar + 1).split(',')) {
      if (!HARMLESS_MODIFIERS.has(modifier.trim().toLowerCase()))
        return ignored(`the modifier "${modifier}" narrows the rule beyond DNS`);
    }
    body = body.slice(0, dollar);
  }
  let form: EntryForm;
  if (body.startsWith('||')) {
    form = 'subtree';
    body = body.slice(2);
  } else if (body.startsWith('|')) {
    form = 'exact';
    body = body.slice(1);
  } else return ignored('not a ||name^ rule');
  if (body.endsWith('|')) body = body.slice(0, -1);
  if (!body.endsWith('^')) return ignored('not a ||name^ rule (no ^ after the name)');
  body = body.slice(0, -1);
  if (body.includes('*') || body.includes('/') || body.includes('^')) return ignored('a pattern, not a name');
  return addName(body, form, exception, sink) ?? ENTRY;
}

/**
 * Reads one line of a list source and passes its entries to `sink` (spec 2.4 forms, see list-artifact.ts):
 * - `#` and `!` start comments (`[Adblock Plus 2.0]` headers too); blank lines are blank;
 * - `address name…` (hosts) blocks each name exactly; `name` alone blocks it exactly, `*.name` what is under
 *   it; text after `#` on such a line is a comment;
 * - `||name^` blocks the name and everything under it, `|name^` exactly the name, `@@` before either
 *   unblocks (see {@link adblockRule});
 * - cosmetic rules and URL patterns are `ignored` (in an `adblock` source any line that is not a DNS rule is);
 *   names that are not valid domain names are `invalid`, as are lines longer than {@link LIST_LINE_MAX_LENGTH}.
 */
export function parseListLine(raw: string, format: ListFormat, sink: ListEntrySink): ListLineOutcome {
  if (raw.length > LIST_LINE_MAX_LENGTH) return invalid(`longer than ${LIST_LINE_MAX_LENGTH} characters`);
  const line = raw.trim();
  if (line === '') return BLANK;
  const first = line.charCodeAt(0);
  // `#`, `!`, `[`
  if (first === 35 || first === 33 || first === 91) return COMMENT;
  if (line.startsWith('@@')) return adblockRule(line.slice(2), true, sink);
  if (first === 124) return adblockRule(line, false, sink);
  const hash = line.indexOf('#');
  if ((hash !== -1 || line.includes('$$')) && COSMETIC_MARKERS.some((marker) => line.includes(marker)))
    return ignored('a cosmetic rule');
  const text = hash === -1 ? line : line.slice(0, hash).trimEnd();
  let space = -1;
  for (let index = 0; index < text.length; index += 1) {
    if (isSpace(text.charCodeAt(index))) {
      space = index;
      break;
    }
  }
  if (space === -1) {
    if (text.startsWith('*.')) {
      const outcome = addName(text.slice(2), 'subdomains', false, sink);
      return outcome === undefined ? ENTRY : format === 'adblock' ? ignored('not a DNS rule') : outcome;
    }
    if (parseIpAddress(text) !== null) return ignored('an address without a name');
    const outcome = addName(text, 'exact', false, sink);
    if (outcome === undefined) return ENTRY;
    return format === 'adblock' && outcome.kind === 'invalid' ? ignored('not a DNS rule') : outcome;
  }
  // An IPv6 address may carry a zone (`fe80::1%lo0`), as in the local lines of hosts files.
  const address = text.slice(0, space).split('%')[0] ?? '';
  if (!HOSTS_ADDRESSES.has(address) && parseIpAddress(address) === null)
    return format === 'adblock'
      ? ignored('not a DNS rule')
      : invalid('neither a name nor an address and names');
  let added = false;
  let problem: ListLineOutcome | undefined;
  let start = space + 1;
  while (start < text.length) {
    while (start < text.length && isSpace(text.charCodeAt(start))) start += 1;
    let end = start;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end += 1;
    if (end === start) break;
    const outcome = addName(text.slice(start, end), 'exact', false, sink);
    if (outcome === undefined) added = true;
    else if (problem === undefined || outcome.kind === 'invalid') problem = outcome;
    start = end;
  }
  if (added) return ENTRY;
  return problem ?? ignored('an address without a name');
}
