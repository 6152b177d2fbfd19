import { notFound } from '../shared/domain-error.js';
import { accountView, normaliseEmail } from './account-view.js';
import type { AccountOperatorRepository, AccountReadRepository } from './identity.ports.js';
import type { Account } from './identity.schemas.js';

/**
 * Flags an existing account as an operator or clears the flag (`svc accounts set-operator`). Operators are
 * made only by someone with access to the storage, never through the API (spec 5.4).
 */
export async function setOperatorFlag(
  store: { accounts: AccountReadRepository & AccountOperatorRepository },
  email: string,
  isAdmin: boolean,
): Promise<Account> {
  const account = await store.accounts.findByEmail(normaliseEmail(email));
  if (account === null) throw notFound('account');
  await store.accounts.setOperator(account.id, isAdmin);
  return accountView({ ...account, isAdmin });
}
