import { useQuery } from '@tanstack/react-query';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';

const ACCOUNT_ACTOR = /^account:([0-9a-f-]{36})$/;

/**
 * Who did something, as a person reads it: `account:<id>` becomes the account's email (found by the operator
 * search, cached per account); anything else (`token:<id>`, `system`) is shown as recorded.
 */
export function ActorName({ actor }: { actor: string }) {
  const accountId = ACCOUNT_ACTOR.exec(actor)?.[1];
  const found = useQuery({
    queryKey: adminKeys.accountSearch(accountId ?? ''),
    queryFn: () => api.admin.accounts.search(accountId ?? '', { limit: 1 }).page(),
    enabled: accountId !== undefined,
    staleTime: 300_000,
  });
  const email = found.data?.items[0]?.email;
  return <>{email ?? actor}</>;
}
