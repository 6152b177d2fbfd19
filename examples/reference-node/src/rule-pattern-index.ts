/**
 * Which of a list of rule patterns (spec 2.4) covers a name, found in time that does not grow with the list:
 * each form keeps a map from its base name to the pattern's position, and a name is looked up once per suffix
 * (`a.b.example`, `b.example`, `example`).
 */
export class RulePatternIndex {
  /** `=name`: the name only. */
  private readonly exact = new Map<string, number>();
  /** `name`: the name and everything under it. */
  private readonly subtree = new Map<string, number>();
  /** `*.name`: only what is under the name. */
  private readonly subdomains = new Map<string, number>();
  private readonly patterns: number;

  /** `patterns` are stored (normalised) patterns; a position is the pattern's index in this list. */
  constructor(patterns: readonly string[]) {
    patterns.forEach((pattern, position) => {
      const [forms, base] = pattern.startsWith('=')
        ? [this.exact, pattern.slice(1)]
        : pattern.startsWith('*.')
          ? [this.subdomains, pattern.slice(2)]
          : [this.subtree, pattern];
      if (!forms.has(base)) forms.set(base, position);
    });
    this.patterns = this.exact.size + this.subtree.size + this.subdomains.size;
  }

  /** How many distinct patterns are indexed. */
  get size(): number {
    return this.patterns;
  }

  /** The position of the first pattern, in list order, that covers a normalised name; -1 when none does. */
  firstCovering(name: string): number {
    if (this.size === 0) return -1;
    let first = this.exact.get(name) ?? -1;
    let suffix = name;
    for (let under = false; ; under = true) {
      const subtree = this.subtree.get(suffix);
      if (subtree !== undefined && (first < 0 || subtree < first)) first = subtree;
      const subdomains = under ? this.subdomains.get(suffix) : undefined;
      if (subdomains !== undefined && (first < 0 || subdomains < first)) first = subdomains;
      const dot = suffix.indexOf('.');
      if (dot < 0) return first;
      suffix = suffix.slice(dot + 1);
    }
  }
}
