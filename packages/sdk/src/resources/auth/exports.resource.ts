import type { DataExport } from '../../data-export.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { CreateOptions, Transport } from '../../transport.js';

/** Options of {@link ExportsResource.list}. */
export interface ExportListOptions {
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
}

/** GDPR data exports of the signed-in account, `/v1/auth/me/exports` (session only). */
export class ExportsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /v1/auth/me/exports: starts an export, built in the background (poll {@link get} until `ready`).
   * Throws ApiError 409 `export_in_progress` while another one is pending.
   */
  async create(options: CreateOptions = {}): Promise<DataExport> {
    return (
      await this.transport.send<{ export: DataExport }>({
        method: 'POST',
        path: '/v1/auth/me/exports',
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data.export;
  }

  /** GET /v1/auth/me/exports: the account's exports, newest first, page after page. */
  list(options: ExportListOptions = {}): Paginator<DataExport> {
    return listPages<DataExport>(this.transport, '/v1/auth/me/exports', 'exports', { limit: options.limit });
  }

  /** GET /v1/auth/me/exports/{id}: its status, with `download_url` when ready. Throws ApiError 404. */
  async get(id: string): Promise<DataExport> {
    return (
      await this.transport.send<{ export: DataExport }>({
        method: 'GET',
        path: `/v1/auth/me/exports/${encodeURIComponent(id)}`,
      })
    ).data.export;
  }

  /**
   * GET /v1/auth/me/exports/{id}/download: the archive, JSON lines (the account's data first, then its
   * profiles' query logs), as the text to save. Throws ApiError
   * 409 `export_not_ready` before it is ready, 404 once it expired.
   */
  async download(id: string): Promise<string> {
    return (
      await this.transport.send<string>({
        method: 'GET',
        path: `/v1/auth/me/exports/${encodeURIComponent(id)}/download`,
        responseType: 'text',
      })
    ).data;
  }
}
