import type { TransactionScope } from '@svc/domain';

/**
 * The repositories of one transaction other than the outbox, as each storage family builds them on its
 * transaction (a PostgreSQL connection, or the memory stores' working copy); the unit of work adds its outbox.
 */
export type TransactionRepositories = Omit<TransactionScope, 'outbox'>;
