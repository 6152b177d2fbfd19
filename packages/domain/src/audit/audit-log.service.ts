import { z } from 'zod';
import { type CursorSealer, PageQuery, pageFrom } from '../pagination/pagination.js';
import { validationFailed } from '../shared/domain-error.js';
import {
  AuditActions,
  type AuditActorEmails,
  type AuditEntryRecord,
  type AuditLogStore,
} from './audit.ports.js';

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
    actor_email: z.string().nullable().meta({
      description:
        'Email of the account behind an `account:` or `token:` actor, when that account belongs to the organisation whose log this is; null for nodes, erased accounts and accounts of other organisations.',
    }),
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

/** An audit entry as the API answers it (also in data exports), with its actor's email from `emails`. */
export function auditEntryView(
  entry: AuditEntryRecord,
  emails: ReadonlyMap<string, string> = new Map(),
): AuditEntryView {
  return {
    id: entry.id,
    actor: entry.actor,
    actor_email: emails.get(entry.actor) ?? null,
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
  constructor(
    private readonly deps: { store: AuditLogStore; cursors: CursorSealer; actors: AuditActorEmails },
  ) {}

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
    const emails = await this.deps.actors.emailsOf([...new Set(page.items.map((row) => row.actor))], orgId);
    return { entries: page.items.map((row) => auditEntryView(row, emails)), next_cursor: page.nextCursor };
  }
}
