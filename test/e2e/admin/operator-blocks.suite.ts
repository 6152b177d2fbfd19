import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { operatorBlockChanges } from './operator-blocks.changes.js';
import { operatorBlockCreation } from './operator-blocks.creation.js';
import { useOperatorBlocksFixture } from './operator-blocks.fixture.js';

/**
 * Operator domain blocks through HTTP (spec 2.8, 3, 4.10, 6.2, 6.3): admin scope of operator accounts only,
 * validation, 409 block_exists race-free, one `operator.changed` per change with gapless file versions, the
 * note never published, csam patterns audited only as their SHA-256 digest, expired entries republished out.
 */
export function runOperatorBlocksSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`operator blocks on ${storage} (spec 2.8, 4.10)`, () => {
    const fx = useOperatorBlocksFixture(storage);
    operatorBlockCreation(fx);
    operatorBlockChanges(fx);
  });
}
