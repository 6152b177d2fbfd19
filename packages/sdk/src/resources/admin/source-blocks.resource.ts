import type { SourceBlock, SourceBlockChange } from '@svc/domain';
import type { SourceBlockCreateRequest } from '../../admin.types.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { CreateOptions, Transport } from '../../transport.js';
import type { OperatorListOptions } from './operator-blocks.resource.js';

/**
 * Abusive-source blocks, `/v1/admin/source-blocks` (scope admin, spec 2.9): CIDRs stored as their masked
 * prefix, always with an expiry; each change republishes the operator sources file.
 */
export class SourceBlocksResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/source-blocks: newest first, auto-paging. */
  list(options: OperatorListOptions = {}): Paginator<SourceBlock> {
    return listPages<SourceBlock>(this.transport, '/v1/admin/source-blocks', 'blocks', {
      limit: options.limit,
      status: options.status,
    });
  }

  /** POST /v1/admin/source-blocks: `{block, file_version}`. */
  async create(request: SourceBlockCreateRequest, options: CreateOptions = {}): Promise<SourceBlockChange> {
    return (
      await this.transport.send<SourceBlockChange>({
        method: 'POST',
        path: '/v1/admin/source-blocks',
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** DELETE /v1/admin/source-blocks/{id}: the removed block and the new file version. */
  async remove(id: string): Promise<SourceBlockChange> {
    return (
      await this.transport.send<SourceBlockChange>({
        method: 'DELETE',
        path: `/v1/admin/source-blocks/${encodeURIComponent(id)}`,
      })
    ).data;
  }
}
