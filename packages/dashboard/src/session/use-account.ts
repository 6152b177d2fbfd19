import { useQuery } from '@tanstack/react-query';
import { accountQueries } from '../api/account.queries.js';

/** The signed-in account: `null` when signed out, undefined while it is being asked. */
export function useAccount() {
  return useQuery(accountQueries.me());
}
