import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { listPipelineFetching } from './list-pipeline.fetching.js';
import { useListPipelineFixture } from './list-pipeline.fixture.js';
import { listPipelineRefusals } from './list-pipeline.refusals.js';

/**
 * The list pipeline (issue 29) through a server whose sources come from a local mirror
 * (SVC_LIST_MIRROR_URL): real-format fixture lists compiled into content-addressed versions, shown by
 * GET /v1/lists, the admin sources and versions views and list reports; 304s, failures and changes.
 */
export function runListPipelineSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`the list pipeline on ${storage} (issue 29)`, () => {
    const fx = useListPipelineFixture(storage);
    listPipelineFetching(fx);
    listPipelineRefusals(fx);
  });
}
