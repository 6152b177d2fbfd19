import type { Account } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { isSignedOut } from '../problems/problem-of.js';

/** Cache key of the signed-in account; invalidate it after signing in or out. */
export const ACCOUNT_QUERY_KEY = ['account'] as const;

/** The signed-in account: `null` when signed out, undefined while it is being asked. */
export function useAccount() {
  return useQuery({
    queryKey: ACCOUNT_QUERY_KEY,
    queryFn: async (): Promise<Account | null> => {
      try {
        return await api.auth.me();
      } catch (error) {
        if (isSignedOut(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}
