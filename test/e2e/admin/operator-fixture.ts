import { IdentityStore, MessageBus, setOperatorFlag } from '@svc/domain';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import type { ApiHarness } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

/** An operator: an account flagged with `setOperatorFlag` (what `svc accounts set-operator` does). */
export interface TestOperator extends TestAccount {
  /** Headers of an API token with the admin scope (and account:read, for the operator's own audit log). */
  admin: Record<string, string>;
  /** Headers of the same operator's token without the admin scope. */
  noAdmin: Record<string, string>;
}

/** Signs an account up, flags it an operator and creates a token with the admin scope (development mode). */
export async function createOperator(api: ApiHarness): Promise<TestOperator> {
  const account = await createAccount(api);
  const store = await api.container.getAsync<IdentityStore>(IdentityStore);
  await setOperatorFlag(store, account.email, true);
  const created = await send(`${api.url}/v1/tokens`, {
    method: 'POST',
    headers: { cookie: `svc_session=${account.cookie}` },
    body: { name: 'operator', scopes: ['admin', 'account:read', 'profiles:read'] },
  });
  if (created.status !== 201) throw new Error(`admin token: ${created.status} ${created.text}`);
  const secret = (created.json as { secret: string }).secret;
  return { ...account, admin: { authorization: `Bearer ${secret}` }, noAdmin: account.auth };
}

/** A delivery seen on the bus. */
export interface SeenMessage {
  subject: string;
  payload: unknown;
}

/** Records what the server publishes on `subject` (through its outbox relay) from now on. */
export async function recordBus(api: ApiHarness, subject: string): Promise<SeenMessage[]> {
  const bus = await api.container.getAsync<MessageBus>(MessageBus);
  const seen: SeenMessage[] = [];
  await bus.subscribe(subject, (delivery) => {
    seen.push({ subject: delivery.subject, payload: delivery.payload });
  });
  return seen;
}
