import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { useSourceBlocksFixture } from './source-blocks-suspension.fixture.js';
import { sourceBlocks } from './source-blocks-suspension.source-blocks.js';
import { profileSuspension } from './source-blocks-suspension.suspension.js';

/**
 * Abusive-source blocks and profile suspension through HTTP (spec 2.9, 3, 4.10, 6.2, 6.3; ROUTES.md
 * "Operator"): masked CIDRs, required expiry, `{block, file_version}` answers, the operator sources file
 * republished once per change, `admin.source_block_removed`; suspension of any organisation's profile with an
 * operator-only reason, a versioned edge document that resolves without filtering or logging, and 409
 * profile_suspended for the owner's writes.
 */
export function runSourceBlocksAndSuspensionSuite(
  storage: HarnessStorage,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`source blocks and suspensions on ${storage} (spec 2.9, 3)`, () => {
    const fx = useSourceBlocksFixture(storage);
    sourceBlocks(fx);
    profileSuspension(fx);
  });
}
