import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** The account's API tokens. */
export const tokensKeys = {
  all: ['tokens'] as const,
  list: () => tokensKeys.all,
};

/** Tokens listed at most (a page of the API is 100; people have a handful). */
const TOKENS_SHOWN = 500;

export const tokensQueries = {
  list: () =>
    queryOptions({ queryKey: tokensKeys.list(), queryFn: () => api.tokens.list().toArray(TOKENS_SHOWN) }),
};
