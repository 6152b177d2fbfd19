import type { AuditActorEmails } from '../audit/audit.ports.js';
import type { IdentityRepositories } from './identity.ports.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The address an erasure leaves on an account's row: no person to name. */
const ERASED = /@erased\.invalid$/;

/**
 * {@link AuditActorEmails} over the identity store: `account:<id>` is that account, `token:<id>` the account
 * that owns the token; nodes and anything unknown stay unresolved. With `orgId`, only the organisation's
 * members are named: an account of another organisation (an operator who acted on this one's behalf) stays
 * unresolved (issue 39: a member's own organisation is elsewhere, so membership decides, not `account.orgId`).
 */
export function auditActorEmails(
  identity: Pick<IdentityRepositories, 'accounts' | 'apiTokens' | 'memberships'>,
): AuditActorEmails {
  const accountIdOf = async (actor: string): Promise<string | null> => {
    const [kind, id = ''] = actor.split(':', 2);
    if (!UUID.test(id)) return null;
    if (kind === 'account') return id;
    if (kind === 'token') return (await identity.apiTokens.findById(id))?.accountId ?? null;
    return null;
  };
  return {
    async emailsOf(actors, orgId) {
      const emails = new Map<string, string>();
      for (const actor of actors) {
        const accountId = await accountIdOf(actor);
        const account = accountId === null ? null : await identity.accounts.findById(accountId);
        if (account === null || ERASED.test(account.email)) continue;
        if (orgId !== null && (await identity.memberships.find(orgId, account.id)) === null) continue;
        emails.set(actor, account.email);
      }
      return emails;
    },
  };
}
