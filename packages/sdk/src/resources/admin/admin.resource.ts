import type { Transport } from '../../transport.js';
import { AdminAccountsResource } from './admin-accounts.resource.js';
import { AdminListReportsResource, AdminListsResource } from './admin-list-reports.resource.js';
import {
  AdminAuditResource,
  AdminClientErrorsResource,
  AdminFeedbackResource,
} from './admin-views.resource.js';
import { OperatorBlocksResource } from './operator-blocks.resource.js';
import { ProfileSuspensionsResource } from './profile-suspensions.resource.js';
import { SourceBlocksResource } from './source-blocks.resource.js';

/**
 * The operator routes under `/v1/admin` (scope admin, operator accounts only; outside development a session
 * needs a passkey or TOTP sign-in, else 403 `mfa_required`).
 */
export class AdminResource {
  /** Operator domain blocks. */
  readonly operatorBlocks: OperatorBlocksResource;
  /** Abusive-source blocks. */
  readonly sourceBlocks: SourceBlocksResource;
  /** Profile suspension. */
  readonly profiles: ProfileSuspensionsResource;
  /** Account deletion on an owner's behalf, and its cancel. */
  readonly accounts: AdminAccountsResource;
  /** List-report triage. */
  readonly listReports: AdminListReportsResource;
  /** The list compiler's sources and builds. */
  readonly lists: AdminListsResource;
  /** Every organisation's audit log. */
  readonly audit: AdminAuditResource;
  /** Dashboard error reports of every account. */
  readonly clientErrors: AdminClientErrorsResource;
  /** Dashboard feedback of every account. */
  readonly feedback: AdminFeedbackResource;

  constructor(transport: Transport) {
    this.operatorBlocks = new OperatorBlocksResource(transport);
    this.sourceBlocks = new SourceBlocksResource(transport);
    this.profiles = new ProfileSuspensionsResource(transport);
    this.accounts = new AdminAccountsResource(transport);
    this.listReports = new AdminListReportsResource(transport);
    this.lists = new AdminListsResource(transport);
    this.audit = new AdminAuditResource(transport);
    this.clientErrors = new AdminClientErrorsResource(transport);
    this.feedback = new AdminFeedbackResource(transport);
  }
}
