import { z } from 'zod';
import { type CursorSealer, PageQuery, pageFrom } from '../pagination/pagination.js';
import { validationFailed } from '../shared/domain-error.js';
import { AuditActions, type AuditEntryRecord, type AuditLogStore } from './audit.ports.js';

/** The audit actions as a schema (the type is {@link AuditAction} of the ports). */
export const AuditActionEnum = z.enum(AuditActions).meta({ id: 'AuditAction' });

/** Query of GET /v1/auth/audit: page, and `action` once or repeated. */
export const AuditQuery = PageQuery.extend({
  action: z
    .union([AuditActionEnum, z.array(AuditActionEnum)])
    .optional()
    .meta({ description: 'Only entries of this action; repeat for several.' }),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** An audit entry as answered (spec 6.2). */
export const AuditEntryView = z
  .object({
    id: z.string().meta({ description: 'Position in the log, as a decimal string.' }),
    actor: z.string().meta({ description: '`account:<id>`, `token:<id>` or `node:<id>`.' }),
    action: AuditActionEnum,
    target: z.string(),
    created_at: z.iso.datetime(),
    client_ip: z.string().nullable(),
    request_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.infer<typeof AuditEntryView>;

/** A page of the organisation's audit log. */
export const AuditEntryList = z
  .object({ entries: z.array(AuditEntryView), next_cursor: z.string().nullable() })
  .meta({ id: 'AuditEntryList' });
export type AuditEntryList = z.infer<typeof AuditEntryList>;

const LIST = 'audit';

/** An audit entry as the API answers it (also in data exports). */
export function auditEntryView(entry: AuditEntryRecord): AuditEntryView {
  return {
    id: entry.id,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    created_at: entry.at.toISOString(),
    client_ip: entry.clientIp,
    request_id: entry.requestId,
    details: entry.details,
  };
}

/** Reads an organisation's audit log, newest first, with sealed keyset cursors. */
export class AuditLogService {
  constructor(private readonly deps: { store: AuditLogStore; cursors: CursorSealer }) {}

  async list(orgId: string, query: AuditQuery): Promise<AuditEntryList> {
    let after: { at: Date; id: string } | null = null;
    if (query.cursor !== undefined) {
      const position = this.deps.cursors.open(LIST, query.cursor);
      const at = typeof position.at === 'string' ? new Date(position.at) : new Date(Number.NaN);
      if (Number.isNaN(at.getTime()) || typeof position.id !== 'string' || !/^\d+$/.test(position.id)) {
        throw validationFailed([{ field: 'cursor', message: 'not a cursor of this list' }]);
      }
      after = { at, id: position.id };
    }
    const actions = query.action === undefined ? [] : [query.action].flat();
    const rows = await this.deps.store.page(orgId, { limit: query.limit + 1, after, actions });
    const page = pageFrom(rows, query.limit, this.deps.cursors, LIST, (row) => ({
      at: row.at.toISOString(),
      id: row.id,
    }));
    return { entries: page.items.map(auditEntryView), next_cursor: page.nextCursor };
  }
}
