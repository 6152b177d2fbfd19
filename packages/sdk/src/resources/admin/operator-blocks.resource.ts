import type { OperatorBlock, OperatorBlockChange } from '@svc/domain';
import type { OperatorBlockCreateRequest, OperatorEntryStatusFilter } from '../../admin.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { CreateOptions, Transport } from '../../transport.js';

/** Options of the operator lists. */
export interface OperatorListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every entry. */
  limit?: number;
  /** Only live, removed or expired entries. */
  status?: OperatorEntryStatusFilter;
}

/**
 * Operator domain blocks, `/v1/admin/operator-blocks` (scope admin, spec 2.8, 4.10). Each creation or removal
 * republishes the operator blocks file; the answer carries its new `file_version`.
 */
export class OperatorBlocksResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/operator-blocks: newest first, live and removed, auto-paging. */
  list(options: OperatorListOptions = {}): Paginator<OperatorBlock> {
    return listPages<OperatorBlock>(this.transport, '/v1/admin/operator-blocks', 'blocks', {
      limit: options.limit,
      status: options.status,
    });
  }

  /**
   * POST /v1/admin/operator-blocks. Throws ApiError 409 `block_exists` when a live entry has the pattern, 422
   * `validation_failed` for csam entries scoped by pops or jurisdictions.
   */
  async create(
    request: OperatorBlockCreateRequest,
    options: CreateOptions = {},
  ): Promise<OperatorBlockChange> {
    return (
      await this.transport.send<OperatorBlockChange>({
        method: 'POST',
        path: '/v1/admin/operator-blocks',
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** DELETE /v1/admin/operator-blocks/{id}: the removed block and the new file version. */
  async remove(id: string): Promise<OperatorBlockChange> {
    return (
      await this.transport.send<OperatorBlockChange>({
        method: 'DELETE',
        path: `/v1/admin/operator-blocks/${encodeURIComponent(id)}`,
      })
    ).data;
  }
}
