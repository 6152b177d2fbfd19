/** Query keys of the operator area (`/v1/admin`): every organisation's entries, found and listed by operators. */
export const adminKeys = {
  all: ['admin'] as const,
  operatorBlocks: () => [...adminKeys.all, 'operator-blocks'] as const,
  operatorBlockList: (status: string) => [...adminKeys.operatorBlocks(), status] as const,
  sourceBlocks: () => [...adminKeys.all, 'source-blocks'] as const,
  sourceBlockList: (status: string) => [...adminKeys.sourceBlocks(), status] as const,
  profile: (id: string) => [...adminKeys.all, 'profiles', id] as const,
  accountSearch: (text: string) => [...adminKeys.all, 'accounts', 'search', text] as const,
  profileSearch: (text: string) => [...adminKeys.all, 'profiles', 'search', text] as const,
  listReports: () => [...adminKeys.all, 'list-reports'] as const,
  listReportList: (status: string) => [...adminKeys.listReports(), status] as const,
  listSources: () => [...adminKeys.all, 'list-sources'] as const,
  audit: (orgId: string, action: string) => [...adminKeys.all, 'audit', orgId, action] as const,
  feedback: () => [...adminKeys.all, 'feedback'] as const,
  clientErrors: () => [...adminKeys.all, 'client-errors'] as const,
};
