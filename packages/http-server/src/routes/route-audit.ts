import { type AuditSource, DomainError } from '@svc/domain';
import type { Principal } from '../http/principal.js';

/**
 * Who is changing something and from where, for the audit entry of the change: the principal's actor
 * (`account:<id>` or `token:<id>`), the client address and the request id.
 */
export function auditSourceOf(context: {
  principal: Principal | null;
  clientIp: string;
  requestId: string;
}): AuditSource {
  if (context.principal === null) throw new DomainError('unauthenticated', 'This route needs a credential.');
  return { actor: context.principal.actor, clientIp: context.clientIp, requestId: context.requestId };
}
