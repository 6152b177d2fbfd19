import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** The members of the organisation the session acts in, its pending invitations, and the account's organisations. */
export const membersKeys = {
  all: ['org'] as const,
  members: () => [...membersKeys.all, 'members'] as const,
  invitations: () => [...membersKeys.all, 'invitations'] as const,
  organisations: () => [...membersKeys.all, 'organisations'] as const,
};

export const membersQueries = {
  members: () => queryOptions({ queryKey: membersKeys.members(), queryFn: () => api.org.members.list() }),
  invitations: () =>
    queryOptions({ queryKey: membersKeys.invitations(), queryFn: () => api.org.invitations.list() }),
  organisations: () =>
    queryOptions({ queryKey: membersKeys.organisations(), queryFn: () => api.auth.organisations.list() }),
};
