/**
 * The organisation's audit log lives with the account (`accountQueries.audit()` in `account.queries.ts`): its
 * key extends the account's, so that signing in as someone else never shows the previous log.
 */
export { accountKeys as auditKeys } from './account.queries.js';
