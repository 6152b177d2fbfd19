import type { AuditSource } from '../audit/audit.ports.js';

/** The operator making a change: audited in the operator's own organisation. */
export interface OperatorActor extends AuditSource {
  /** The operator's organisation, whose audit log holds the entry. */
  orgId: string;
}
