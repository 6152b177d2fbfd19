import type { FieldError, ProfileRules } from '@svc/sdk';
import { t } from '../../i18n/t.js';

/** The three rule lists of a profile (spec 2.4). */
export type RuleList = 'deny' | 'allow' | 'rewrites';

/** One rule as written on a line of pasted text: a pattern, and for rewrites its answer. */
export interface PastedRule {
  /** 1-based line of the pasted text it came from. */
  line: number;
  text: string;
  pattern: string;
  answer: string;
}

/**
 * The rules in pasted text, one a line: blank lines and `#` comments are skipped; a rewrite line is the
 * pattern then the answer, separated by spaces, a tab or an arrow (`example.com 192.0.2.1`,
 * `example.com -> other.example`). The text is not checked here: the API says what is wrong with each line.
 */
export function pastedRules(text: string, list: RuleList): PastedRule[] {
  const rules: PastedRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (list !== 'rewrites') {
      rules.push({ line: index + 1, text: line, pattern: line, answer: '' });
      return;
    }
    const [pattern = '', ...rest] = line.split(/\s*(?:->|→|=>)\s*|\s+/).filter((part) => part !== '');
    rules.push({ line: index + 1, text: line, pattern, answer: rest.join(' ') });
  });
  return rules;
}

/** The rules with `pasted` added at the end of `list`, as the PUT sends them. */
export function withPasted(rules: ProfileRules, list: RuleList, pasted: readonly PastedRule[]): ProfileRules {
  if (list === 'rewrites')
    return {
      ...rules,
      rewrites: [...rules.rewrites, ...pasted.map(({ pattern, answer }) => ({ pattern, answer }))],
    };
  return { ...rules, [list]: [...rules[list], ...pasted.map((rule) => rule.pattern)] };
}

/** A field error of the PUT that belongs to one pasted line. */
export interface LineError {
  line: number;
  text: string;
  message: string;
}

/**
 * The API's field errors (`deny.12`, `rewrites.3.answer`) mapped back to the pasted lines they came from:
 * entries from `existing` onwards in `list` are the pasted ones. Errors about the list as a whole (too many
 * rules) or about existing entries are left for the summary.
 */
export function lineErrors(
  errors: readonly FieldError[],
  list: RuleList,
  existing: number,
  pasted: readonly PastedRule[],
): { lines: LineError[]; others: FieldError[] } {
  const lines: LineError[] = [];
  const others: FieldError[] = [];
  for (const error of errors) {
    const match = /^(deny|allow|rewrites)\.(\d+)(?:\.(pattern|answer))?$/.exec(error.field);
    const rule = match?.[1] === list ? pasted[Number(match[2]) - existing] : undefined;
    if (rule === undefined) {
      others.push(error);
      continue;
    }
    const part =
      match?.[3] === 'answer'
        ? t('profiles.rules.theAnswer')
        : list === 'rewrites'
          ? t('profiles.rules.thePattern')
          : t('profiles.rules.it');
    lines.push({ line: rule.line, text: rule.text, message: `${part} ${error.message}` });
  }
  return { lines: lines.sort((a, b) => a.line - b.line), others };
}

/** The character range of line `line` (1-based) of `text`, to select it in the text box. */
export function lineRange(text: string, line: number): [number, number] {
  const lines = text.split('\n');
  const start = lines.slice(0, line - 1).reduce((sum, part) => sum + part.length + 1, 0);
  return [start, start + (lines[line - 1]?.length ?? 0)];
}
