import type { AuditAction, AuditSource } from '../audit/audit.ports.js';
import { newApiTokenSecret } from '../identity/secrets.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { NodeScope } from './node.ports.js';
import type { NodeRecord } from './node.records.js';

// The secrets a node holds (its one-time enrolment code, then its `svcnode_` token), the errors naming what
// is wrong with one, and the audit record every change of a node leaves: shared by enrolment and tokens.

/** Keyed-hash purposes of node secrets: one key each, so a hash never stands in for another secret. */
export const NodeSecretPurpose = { enrolment: 'node-enrolment-code', token: 'node-token' } as const;

/** How long an enrolment code works if unused: a day to install and start a node, not a standing credential. */
export const ENROLMENT_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A node token: `svcnode_` and 52 alphanumerics (spec 5.1), drawn like an API token. */
export const NODE_TOKEN_PATTERN = /^svcnode_[A-Za-z0-9]{52}$/;
/** An enrolment code: `svcenrol_` and 32 random bytes in base64url. */
export const ENROLMENT_CODE_PATTERN = /^svcenrol_[A-Za-z0-9_-]{43}$/;

/** A new node token. */
export function newNodeToken(random: Random): string {
  return `svcnode_${newApiTokenSecret(random).slice('svc_'.length)}`;
}

/** An enrolment code never issued (or malformed): the same answer, so codes cannot be probed. */
export function unknownCode(): DomainError {
  return new DomainError('invalid_token', 'This enrolment code is not valid.');
}

/** A node token that names no live node. */
export function badToken(): DomainError {
  return new DomainError('unauthenticated', 'The node token is not valid.');
}

/** A node revoked, or gone with its profile. */
export function revoked(): DomainError {
  return new DomainError('node_revoked', 'This node was revoked; enrol a new one.');
}

/** Records a change of a node in the audit log of its organisation, in the change's transaction. */
export async function auditNode(
  tx: NodeScope,
  clock: Clock,
  node: NodeRecord,
  change: { action: AuditAction; source: AuditSource; details: Record<string, unknown> },
): Promise<void> {
  await tx.audit.record({
    ...change.source,
    orgId: node.orgId,
    action: change.action,
    target: `profiles/${node.profileId}/nodes/${node.id}`,
    details: change.details,
    at: clock.now(),
  });
}
