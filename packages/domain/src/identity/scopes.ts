import { z } from 'zod';

/** Token scopes of spec 5.4. `admin` is held only by operator accounts and never granted through the API. */
const SCOPES = [
  'profiles:read',
  'profiles:write',
  'account:read',
  'logs:read',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  'admin',
] as const;

/** One scope name. */
export const Scope = z.enum(SCOPES).meta({ id: 'Scope', description: 'A token scope (spec 5.4).' });
export type Scope = z.infer<typeof Scope>;

/** The scopes an account may hold: every scope, and `admin` only for operators. */
export function scopesOfAccount(isAdmin: boolean): ReadonlySet<Scope> {
  return new Set(SCOPES.filter((scope) => scope !== 'admin' || isAdmin));
}
