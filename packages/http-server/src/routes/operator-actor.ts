import type { OperatorActor } from '@svc/domain';
import type { Principal } from '../http/principal.js';
import { actingAccount } from './route-principal.js';

/** The operator of an admin route, as audited in the operator's own organisation. */
export function operatorActor(
  principal: Principal | null,
  request: { clientIp: string; requestId: string },
): OperatorActor {
  const account = actingAccount(principal);
  return {
    orgId: account.orgId,
    actor: principal?.actor ?? `account:${account.id}`,
    clientIp: request.clientIp,
    requestId: request.requestId,
  };
}
