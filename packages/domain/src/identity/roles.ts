import { z } from 'zod';

/** The roles of a member of an organisation (issue 39), from most to least powerful. */
const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;

/**
 * A member's role: `owner` (everything, exactly one per organisation), `admin` (everything else, members
 * included), `editor` (profiles and what hangs off them, logs, analytics), `viewer` (reads only).
 */
export const Role = z.enum(ROLES).meta({ id: 'Role', description: 'A member’s role in an organisation.' });
export type Role = z.infer<typeof Role>;

/** The roles a member may be given by invitation or role change: ownership moves only by transfer. */
export const AssignableRole = z
  .enum(['admin', 'editor', 'viewer'])
  .meta({ id: 'AssignableRole', description: 'A role that can be given (ownership is transferred).' });
export type AssignableRole = z.infer<typeof AssignableRole>;

const RANK: Readonly<Record<Role, number>> = { owner: 3, admin: 2, editor: 1, viewer: 0 };

/** True when `role` includes everything `minimum` may do. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** Reads a stored role; an unknown value (a row written by a newer server) counts as the least. */
export function roleOf(stored: string): Role {
  const parsed = Role.safeParse(stored);
  return parsed.success ? parsed.data : 'viewer';
}
