import { useQuery } from '@tanstack/react-query';
import { accountKeys, accountQueries } from '../api/account.queries.js';

/** Cache key of the signed-in account; invalidate it after signing in or out. */
export const ACCOUNT_QUERY_KEY = accountKeys.me();

/** The signed-in account: `null` when signed out, undefined while it is being asked. */
export function useAccount() {
  return useQuery(accountQueries.me());
}
