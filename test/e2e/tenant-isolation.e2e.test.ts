import { postgresServerSkipReason } from '@svc/testing/postgres';
import { describe } from 'vitest';
import type { HarnessStorage } from '../support/api-harness.js';
import { useIsolationFixture } from './tenant-isolation/tenant-isolation.fixture.js';
import { isolationWalk } from './tenant-isolation/tenant-isolation.walk.js';
import { isolationWithoutIds } from './tenant-isolation/tenant-isolation.without-ids.js';

/**
 * Tenant isolation (spec 1.9, 5.3.4) generated from the served OpenAPI document: a stranger from another
 * organisation, holding its own real resources and credentials, sends every operation with a path parameter
 * the owner's real ids; each answer must be the 404 problem document a made-up id gets, to the header.
 */
function runIsolationWalk(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `tenant isolation on ${storage}: another organisation’s resources answer 404, indistinguishable from none (spec 1.9, 5.3.4)`,
    () => {
      const fx = useIsolationFixture(storage);
      isolationWalk(fx);
      isolationWithoutIds(fx);
    },
  );
}

runIsolationWalk('memory');
runIsolationWalk('pglite');
runIsolationWalk('postgres', { skip: postgresServerSkipReason !== undefined });
