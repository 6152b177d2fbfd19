import { queryOptions } from '@tanstack/react-query';
import { accountKeys } from './account.queries.js';
import { api } from './client.js';

/** Ways of signing in: the authenticator app, passkeys and recovery codes. */
export const authKeys = {
  totp: () => ['auth', 'totp'] as const,
  passkeys: () => [...accountKeys.me(), 'passkeys'] as const,
  recoveryCodes: () => [...accountKeys.me(), 'recovery-codes'] as const,
};

export const authQueries = {
  totp: () => queryOptions({ queryKey: authKeys.totp(), queryFn: () => api.auth.totp.status() }),
  passkeys: () => queryOptions({ queryKey: authKeys.passkeys(), queryFn: () => api.auth.passkeys.list() }),
  recoveryCodes: () =>
    queryOptions({ queryKey: authKeys.recoveryCodes(), queryFn: () => api.auth.recoveryCodes.remaining() }),
};
