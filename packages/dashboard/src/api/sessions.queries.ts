import { queryOptions } from '@tanstack/react-query';
import { accountKeys } from './account.queries.js';
import { api } from './client.js';

/** The account's signed-in sessions. */
export const sessionsKeys = {
  list: () => [...accountKeys.me(), 'sessions'] as const,
};

export const sessionsQueries = {
  list: () => queryOptions({ queryKey: sessionsKeys.list(), queryFn: () => api.auth.sessions.list() }),
};
