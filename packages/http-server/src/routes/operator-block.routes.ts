import {
  OperatorBlockChange,
  OperatorBlockCreate,
  OperatorBlockList,
  type OperatorBlockService,
} from '@svc/domain';
import { operatorFileEntryRoutes } from './operator-file-entry.routes.js';
import type { AnyRoute } from './route-definition.js';

/** Operator domain blocks (spec 2.8, 3, 4.10; ROUTES.md "Operator"). */
export function operatorBlockRoutes(blocks: OperatorBlockService): AnyRoute[] {
  return operatorFileEntryRoutes(
    {
      path: '/v1/admin/operator-blocks',
      operationIds: {
        list: 'listOperatorBlocks',
        create: 'createOperatorBlock',
        remove: 'removeOperatorBlock',
      },
      summaries: {
        list: 'Operator domain blocks, live and removed',
        create: 'Block a pattern for every profile',
        remove: 'Remove an operator block',
      },
      descriptions: {
        create:
          'The pattern uses profile rule syntax; edges in scope answer it NXDOMAIN with EDE 15 whatever the profile. csam entries are fleet-wide (pops and jurisdictions must be empty, else 422) and their pattern reaches the audit log only as its SHA-256 digest. A live entry with the same pattern is 409 block_exists.',
        remove: 'Sets removed_by and removed_at. An unknown or already removed block is 404.',
        published:
          'The operator blocks file is republished at the next version (`file_version`, one more per change) and announced on the message bus subject `operator.changed` in the same transaction; the change is audited in the operator’s organisation.',
      },
      schemas: { create: OperatorBlockCreate, change: OperatorBlockChange, list: OperatorBlockList },
      answers: {
        list: 'Operator blocks, newest first.',
        created: 'The created block and the new file version.',
        removed: 'The removed block and the new file version.',
      },
    },
    blocks,
  );
}
