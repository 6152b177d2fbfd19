import type { Account } from '@svc/sdk';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/**
 * The signed-in account and what hangs off it. `me()` is the prefix of every other key here, so that signing
 * in or out (which sets or invalidates it) refreshes the rest with it.
 */
export const accountKeys = {
  me: () => ['account'] as const,
  preferences: () => [...accountKeys.me(), 'preferences'] as const,
  audit: () => [...accountKeys.me(), 'audit'] as const,
  signupMode: () => ['signup-mode'] as const,
};

/** Entries per page of the audit log. */
const AUDIT_PAGE = 50;

export const accountQueries = {
  /**
   * GET /v1/auth/status: `null` when signed out. Asked there rather than at GET /v1/auth/me, whose 401 for a
   * signed-out visit would show as a failed request in the browser's console on every sign-in page.
   */
  me: () =>
    queryOptions({
      queryKey: accountKeys.me(),
      queryFn: (): Promise<Account | null> => api.auth.status(),
      staleTime: 60_000,
    }),
  preferences: () =>
    queryOptions({ queryKey: accountKeys.preferences(), queryFn: () => api.auth.preferences.get() }),
  /** The organisation's audit log, newest first, a page at a time. */
  audit: () =>
    infiniteQueryOptions({
      queryKey: accountKeys.audit(),
      queryFn: ({ pageParam }) => api.auth.audit.list({ limit: AUDIT_PAGE }).page(pageParam),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  signupMode: () =>
    queryOptions({ queryKey: accountKeys.signupMode(), queryFn: () => api.auth.signupMode() }),
};
