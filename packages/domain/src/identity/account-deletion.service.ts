import type { AuditSource } from '../audit/audit.ports.js';
import { accountDeletionCanceledMail, accountDeletionRequestedMail } from '../mail/identity.mails.js';
import { edgeTombstone, profileSubject } from '../profiles/edge-document.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { QueryLogEraser } from '../query-log/query-log-eraser.ports.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { AccountNodesRevocation } from './account-nodes-revocation.ports.js';
import { accountView } from './account-view.js';
import type { AccountRecord } from './identity.records.js';
import type { Account } from './identity.schemas.js';
import type { AccountDeletionScope } from './identity-transaction.ports.js';

/**
 * The deletion cooling-off by default (spec 3, "not shown"; issue 5): 14 days between the request and the
 * erasure, during which the owner can undelete. A setting (SVC_DELETION_COOLING_OFF_DAYS), shown in
 * GET /v1/capabilities.
 */
const DEFAULT_DELETION_COOLING_OFF_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An operator acting on an owner's behalf (spec 3, 4.10): audited in the operator's organisation with the
 * reason and the ticket, which the owner's email quotes as its reference.
 */
export interface DeletionOnBehalf {
  /** The operator's organisation, whose audit log holds the `admin.*` entry. */
  orgId: string;
  source: AuditSource;
  reason?: string;
  ticket?: string;
}

/**
 * What account deletion is built from. `NodesScope` is what revoking the nodes uses of the transaction
 * ({@link AccountNodesRevocation}), which the unit of work offers besides {@link AccountDeletionScope}.
 */
export interface AccountDeletionDependencies<NodesScope = unknown> {
  uow: ScopedUnitOfWork<AccountDeletionScope & NodesScope>;
  /** Revokes the organisation's nodes in the deletion's transaction (the nodes context implements it). */
  nodes: AccountNodesRevocation<NodesScope>;
  clock: Clock;
  /** Days of cooling-off; {@link DEFAULT_DELETION_COOLING_OFF_DAYS} when not given. */
  coolingOffDays?: number;
  /** Publishes a profile's full document (with its contributed parts) inside the transaction. */
  publishProfile: (tx: AccountDeletionScope, profile: ProfileRecord) => Promise<void>;
  /** Erases the profiles' query logs and counts in the columnar store; none without one (memory storage). */
  queryLogs?: QueryLogEraser | null;
  /** `{dashboard_url}` of the emailed undo link, without a trailing slash. */
  dashboardUrl: string;
}

/**
 * Account deletion with cooling-off (spec 3): the request tombstones the organisation's profiles and revokes
 * every session (the requesting one too), API token and node. The owner cancels by signing in again: a
 * session of an account pending deletion may read, undelete and log out (the route pipeline refuses the
 * rest). Erasure runs when the cooling-off ends.
 */
/**
 * The organisations whose profiles and nodes go with the account: those it owns (ADR 0047). An account whose
 * own organisation was handed to another member takes nothing of it along; the route refuses the deletion
 * of an owner whose organisation has other members (409 organisation_has_members).
 */
async function ownedOrganisations(tx: AccountDeletionScope, accountId: string): Promise<string[]> {
  const memberships = await tx.identity.memberships.listByAccount(accountId);
  return memberships
    .filter((membership) => membership.role === 'owner')
    .map((membership) => membership.orgId);
}

export class AccountDeletionService<NodesScope = unknown> {
  constructor(private readonly deps: AccountDeletionDependencies<NodesScope>) {}

  /**
   * DELETE /v1/auth/me (step-up checked by the caller), or on an owner's behalf (POST
   * /v1/admin/accounts/{id}/deletion): 202 with deletion_requested_at and deletion_due_at. The owner is mailed
   * the due date and the undo link either way, so a request they did not make cannot go unnoticed.
   */
  async request(account: AccountRecord, onBehalf?: DeletionOnBehalf): Promise<Account> {
    const now = this.deps.clock.now();
    const days = this.deps.coolingOffDays ?? DEFAULT_DELETION_COOLING_OFF_DAYS;
    const due = new Date(now.getTime() + days * DAY_MS);
    return this.deps.uow.run(async (tx) => {
      if (!(await tx.identity.accounts.startDeletion(account.id, now, due))) {
        throw new DomainError('deletion_pending', 'A deletion of this account is already pending.');
      }
      const owned = await ownedOrganisations(tx, account.id);
      for (const orgId of owned) {
        for (const profile of await tx.profiles.tombstoneAll(orgId, now)) {
          await tx.outbox.enqueue({
            subject: profileSubject(profile.id),
            payload: edgeTombstone(profile.id, profile.version, now),
          });
        }
      }
      await tx.identity.sessions.revokeAllExcept(account.id, null, now);
      await tx.identity.apiTokens.revokeAll(account.id, now);
      for (const orgId of owned) await this.deps.nodes.revokeOrganisationNodes(tx, orgId, now);
      // The sign-in page names the due date, and signing in leads an account being deleted to its cancel button.
      const undo = `${this.deps.dashboardUrl}/login?deletion_due=${encodeURIComponent(due.toISOString())}`;
      await tx.mail.enqueue(accountDeletionRequestedMail(account.email, due, { undo }, onBehalf?.ticket));
      if (onBehalf !== undefined) {
        await tx.audit.record({
          ...onBehalf.source,
          orgId: onBehalf.orgId,
          action: 'admin.deletion_requested',
          target: `accounts/${account.id}`,
          details: {
            account_org_id: account.orgId,
            reason: onBehalf.reason ?? '',
            ...(onBehalf.ticket === undefined ? {} : { ticket: onBehalf.ticket }),
            deletion_due_at: due.toISOString(),
          },
          at: now,
        });
      }
      return accountView({ ...account, deletionRequestedAt: now, deletionDueAt: due });
    });
  }

  /**
   * POST /v1/auth/me/undelete: restores and republishes the profiles, mails the owner and audits
   * `account.deletion_canceled`; sessions and tokens stay revoked.
   */
  async cancel(
    account: AccountRecord,
    source: AuditSource,
    onBehalf?: DeletionOnBehalf,
  ): Promise<{ status: 'active' }> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const outcome = await tx.identity.accounts.cancelDeletion(account.id);
      if (outcome === 'not_pending')
        throw new DomainError('no_deletion_pending', 'This account has no pending deletion.');
      if (outcome === 'erasure_started')
        throw new DomainError(
          'deletion_started',
          'The erasure of this account has begun; it cannot be undone.',
        );
      const restored = [];
      for (const orgId of await ownedOrganisations(tx, account.id)) {
        restored.push(...(await tx.profiles.restoreAll(orgId, now)));
      }
      for (const profile of restored) await this.deps.publishProfile(tx, profile);
      await tx.mail.enqueue(accountDeletionCanceledMail(account.email, onBehalf?.ticket));
      await tx.audit.record({
        ...source,
        orgId: account.orgId,
        action: 'account.deletion_canceled',
        target: `accounts/${account.id}`,
        details: { restored_profiles: restored.map((profile) => profile.id) },
        at: now,
      });
      if (onBehalf !== undefined) {
        await tx.audit.record({
          ...onBehalf.source,
          orgId: onBehalf.orgId,
          action: 'admin.deletion_canceled',
          target: `accounts/${account.id}`,
          details: {
            account_org_id: account.orgId,
            ...(onBehalf.reason === undefined ? {} : { reason: onBehalf.reason }),
            ...(onBehalf.ticket === undefined ? {} : { ticket: onBehalf.ticket }),
          },
          at: now,
        });
      }
      return { status: 'active' as const };
    });
  }

  /**
   * Erases every account whose cooling-off has ended: each is claimed (erasure begun, so undelete answers 409
   * deletion_started and no other server claims it), then its profiles are deleted (their tombstones were
   * published at the request), its data exports deleted, and its sessions, tokens and credentials deleted
   * and its rows anonymised. Last, before the transaction commits, the profiles' query logs, hourly totals
   * and device counts are erased in the columnar store, which has no transactions: should that fail, the
   * whole erasure rolls back (the account is still due and unclaimed) and the next run retries it; should the
   * commit fail after it, the retry erases nothing more there (the erasure is idempotent). The account's row
   * lock is held meanwhile, so an undelete racing it waits and then answers 409 deletion_started.
   */
  async eraseDue(): Promise<number> {
    let erased = 0;
    for (;;) {
      const now = this.deps.clock.now();
      const claimed = await this.deps.uow.run(async (tx) => {
        const account = await tx.identity.accounts.claimDueErasure(now);
        if (account === null) return false;
        const profileIds = [];
        for (const orgId of await ownedOrganisations(tx, account.id)) {
          profileIds.push(...(await tx.profiles.eraseAll(orgId)));
        }
        await tx.exports.eraseAll(account.id);
        await tx.identity.accounts.erase(account.id, now);
        if (profileIds.length > 0) await this.deps.queryLogs?.eraseProfiles(profileIds);
        return true;
      });
      if (!claimed) return erased;
      erased += 1;
    }
  }
}
