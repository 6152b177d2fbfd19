/**
 * How a listed name covers query names, as flag bits of a name table entry. The three forms are those of rule
 * patterns (spec 2.4): exact (`=example.com`), the name and everything under it (`example.com`), and only
 * what is under it (`*.example.com`); each can block or, as an exception (`@@`), unblock.
 */
export const EntryFlag = {
  exact: 1,
  subtree: 2,
  subdomains: 4,
  exceptExact: 8,
  exceptSubtree: 16,
  exceptSubdomains: 32,
} as const;

/** Which forms a name table entry can have. */
export type EntryForm = 'exact' | 'subtree' | 'subdomains';

const BLOCKS_WHOLE = EntryFlag.exact | EntryFlag.subtree;
const BLOCKS_BELOW = EntryFlag.subtree | EntryFlag.subdomains;
const EXCEPTS_WHOLE = EntryFlag.exceptExact | EntryFlag.exceptSubtree;
const EXCEPTS_BELOW = EntryFlag.exceptSubtree | EntryFlag.exceptSubdomains;
/** Every exception bit. */
export const EXCEPTION_FLAGS = EntryFlag.exceptExact | EntryFlag.exceptSubtree | EntryFlag.exceptSubdomains;

/** The flag of a form, blocking or as an exception. */
export function entryFlag(form: EntryForm, exception: boolean): number {
  const base =
    form === 'exact' ? EntryFlag.exact : form === 'subtree' ? EntryFlag.subtree : EntryFlag.subdomains;
  return exception ? base << 3 : base;
}

/**
 * Whether an entry with `flags` blocks a query name: `whole` when the entry's name is the query name itself,
 * else it is one of its ancestors.
 */
export function flagsBlock(flags: number, whole: boolean): boolean {
  return (flags & (whole ? BLOCKS_WHOLE : BLOCKS_BELOW)) !== 0;
}

/** Whether an entry with `flags` is an exception covering a query name (`whole` as for {@link flagsBlock}). */
export function flagsExcept(flags: number, whole: boolean): boolean {
  return (flags & (whole ? EXCEPTS_WHOLE : EXCEPTS_BELOW)) !== 0;
}
