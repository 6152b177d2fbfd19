import type { AuditEntry } from '../../account-feedback.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { Transport } from '../../transport.js';

/** Options of {@link AuditResource.list}. */
export interface AuditListOptions {
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
  /** Only entries of these actions. */
  action?: string | readonly string[];
}

/** The organisation's audit log, `/v1/auth/audit` (scope account:read). */
export class AuditResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/audit: entries newest first, page after page. */
  list(options: AuditListOptions = {}): Paginator<AuditEntry> {
    return listPages<AuditEntry>(this.transport, '/v1/auth/audit', 'entries', {
      limit: options.limit,
      action: options.action,
    });
  }
}
