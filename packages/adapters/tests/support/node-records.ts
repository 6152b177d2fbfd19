import type { NodeRecord } from '@svc/domain';

/** A stored node of the profile, in `state`, created (and enrolled, when it is) at `at`, never seen. */
export function nodeRecord(
  orgId: string,
  profileId: string,
  state: NodeRecord['state'],
  at: Date,
): NodeRecord {
  const id = crypto.randomUUID();
  return {
    id,
    orgId,
    profileId,
    name: `node-${id}`,
    state,
    enrolmentLookup: `enrol-${id}`,
    enrolmentExpiresAt: new Date(at.getTime() + 86_400_000),
    tokenLookup: null,
    previousTokenLookup: null,
    previousValidUntil: null,
    tokenRotatedAt: null,
    softwareVersion: null,
    shapes: [],
    createdAt: at,
    enrolledAt: state === 'enrolled' ? at : null,
    revokedAt: null,
    lastSeenAt: null,
  };
}
