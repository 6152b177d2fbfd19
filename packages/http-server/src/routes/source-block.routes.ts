import { SourceBlockChange, SourceBlockCreate, SourceBlockList, type SourceBlockService } from '@svc/domain';
import { operatorFileEntryRoutes } from './operator-file-entry.routes.js';
import type { AnyRoute } from './route-definition.js';

/** Abusive-source blocks (spec 2.9, 3, 4.10; ROUTES.md "Operator"). */
export function sourceBlockRoutes(sources: SourceBlockService): AnyRoute[] {
  return operatorFileEntryRoutes(
    {
      path: '/v1/admin/source-blocks',
      operationIds: { list: 'listSourceBlocks', create: 'createSourceBlock', remove: 'removeSourceBlock' },
      summaries: {
        list: 'Abusive-source blocks, live and removed',
        create: 'Block an abusive source prefix',
        remove: 'Remove an abusive-source block',
      },
      descriptions: {
        create:
          'The CIDR (IPv4 or IPv6) is stored as its masked prefix; an expiry in the future is required. Audited as `admin.source_block_created`.',
        remove:
          'Sets removed_by and removed_at and records `admin.source_block_removed`. An unknown or already removed block is 404.',
        published:
          'The operator sources file is republished at the next version (`file_version`) and announced on `operator.changed` in the same transaction; audited in the operator’s organisation.',
      },
      schemas: { create: SourceBlockCreate, change: SourceBlockChange, list: SourceBlockList },
      answers: {
        list: 'Source blocks, newest first.',
        created: 'The created source block and the new file version.',
        removed: 'The removed block and the new file version.',
      },
    },
    sources,
  );
}
