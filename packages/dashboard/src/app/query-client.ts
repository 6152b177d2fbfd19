import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { accountKeys } from '../api/account.queries.js';
import { isSignedOut } from '../problems/problem-of.js';
import { isReportableApiFailure, reportClientError } from '../reporting/report-client-error.js';

/**
 * The server-state cache of the dashboard. The SDK already retries what is safe to retry, so the cache does
 * not retry again. Every 5xx is reported; a 401 anywhere means the session ended, so the account is fetched
 * again and the signed-in pages hand over to the sign-in page.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (isReportableApiFailure(error)) reportClientError(error, 'api');
    if (isSignedOut(error)) void client.invalidateQueries({ queryKey: accountKeys.me() });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return client;
}
