import { rulePatternParts } from '../rules/rule-pattern.js';
import type { EntryForm } from './entry-forms.js';
import { nameKey, type SuffixKeys } from './name-key.js';
import { NameTable } from './name-table.js';

const FORM_EXACT = 1;
const FORM_SUBTREE = 2;
const FORM_SUBDOMAINS = 4;

/** A pattern given by its name's key and form rather than its text (a node's `csam` operator blocks). */
export interface KeyedPattern {
  a: number;
  b: number;
  form: EntryForm;
}

/** The key of a pattern's name (see name-key.ts). */
export function patternKey(pattern: string | KeyedPattern): { a: number; b: number } {
  return typeof pattern === 'string' ? nameKey(rulePatternParts(pattern).name) : pattern;
}

/**
 * Whether any of the suffixes `keys` holds is a name of `table` (a table of pattern names): one probe per
 * label, to skip the pattern indexes for the many names no pattern is about.
 */
export function anySuffixIn(table: NameTable, keys: SuffixKeys): boolean {
  for (let suffix = 0; suffix < keys.count; suffix += 1)
    if (table.find(keys.a[suffix] as number, keys.b[suffix] as number) >= 0) return true;
  return false;
}

/**
 * Rule patterns (spec 2.4: `name`, `=name`, `*.name`) indexed by their name's key, so that finding the first
 * pattern covering a query name costs one probe per label of the name, however many patterns there are.
 * "First" is the lowest index in the order given (a profile's rules as stored, an operator file's entries).
 */
export class PatternIndex {
  private readonly table: NameTable;
  /** Per table entry: the indexes of the patterns on that name, ascending. */
  private readonly groups: number[][] = [];
  private readonly forms: Uint8Array;

  constructor(patterns: readonly (string | KeyedPattern)[]) {
    this.table = new NameTable(patterns.length, { values: true });
    this.forms = new Uint8Array(patterns.length);
    patterns.forEach((pattern, index) => {
      const parts = typeof pattern === 'string' ? rulePatternParts(pattern) : undefined;
      const form = parts?.form ?? (pattern as KeyedPattern).form;
      this.forms[index] = form === 'exact' ? FORM_EXACT : form === 'subtree' ? FORM_SUBTREE : FORM_SUBDOMAINS;
      const key = parts === undefined ? (pattern as KeyedPattern) : nameKey(parts.name);
      const before = this.table.size;
      const entry = this.table.add(key.a, key.b, 1, this.groups.length);
      if (this.table.size > before) this.groups.push([index]);
      else this.groups[this.table.valueAt(entry)]?.push(index);
    });
  }

  /** True when no pattern is indexed (lookups can be skipped). */
  get empty(): boolean {
    return this.table.size === 0;
  }

  /**
   * The lowest index of a pattern covering the name whose suffix keys `keys` holds and that `accept` admits
   * (all when omitted), or -1.
   */
  first(keys: SuffixKeys, accept?: (index: number) => boolean): number {
    if (this.table.size === 0) return -1;
    let best = -1;
    for (let suffix = 0; suffix < keys.count; suffix += 1) {
      const entry = this.table.find(keys.a[suffix] as number, keys.b[suffix] as number);
      if (entry < 0) continue;
      const group = this.groups[this.table.valueAt(entry)] as number[];
      for (const index of group) {
        if (best !== -1 && index >= best) break;
        const form = this.forms[index] as number;
        const covers = suffix === 0 ? form !== FORM_SUBDOMAINS : form !== FORM_EXACT;
        if (covers && (accept === undefined || accept(index))) {
          best = index;
          break;
        }
      }
    }
    return best;
  }
}
