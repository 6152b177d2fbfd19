import { z } from 'zod';

/**
 * The formats list sources are published in: `hosts` (an address then names, as /etc/hosts), `domains` (one
 * name a line) and `adblock` (the DNS subset of the Adblock Plus syntax: `||name^`, `@@||name^`).
 */
export const LIST_FORMATS = ['hosts', 'domains', 'adblock'] as const;

/** The format of a list source. */
export const ListFormat = z.enum(LIST_FORMATS).meta({
  description:
    '`hosts` (address and names per line; each name blocked exactly), `domains` (one name a line, blocked exactly; `*.name` blocks what is under it) or `adblock` (`||name^` blocks the name and everything under it, `@@||name^` unblocks; rules that are not DNS rules are ignored).',
});
export type ListFormat = z.infer<typeof ListFormat>;
