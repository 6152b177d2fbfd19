import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { nodeDeletionRules } from './nodes.deletion-rules.js';
import { nodeEnrolmentAndTokens } from './nodes.enrolment-and-tokens.js';
import { useNodesFixture } from './nodes.fixture.js';
import { nodeLink } from './nodes.link.js';
import { nodeOperatorFiles } from './nodes.operator-files.js';
import { nodeOwnerSide } from './nodes.owner-side.js';
import { nodeProfileDocument } from './nodes.profile-document.js';

/**
 * Self-hosted nodes through HTTP and a real WebSocket (spec 1.3, 3, 4.13, 5.1, 5.4, 7, 9; ROUTES.md): creation
 * with a one-time enrolment code, enrolment, node tokens accepted only by node endpoints, rotation with its
 * 600 s grace on an injected clock, revocation from both sides, the signed profile document with its
 * deprecation headers, deletion rules, and the link's protocol.
 */
export function runNodesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`self-hosted nodes on ${storage} (spec 3, 4.13, 5.1)`, () => {
    const fx = useNodesFixture(storage);
    nodeOwnerSide(fx);
    nodeEnrolmentAndTokens(fx);
    nodeProfileDocument(fx);
    nodeOperatorFiles(fx);
    nodeDeletionRules(fx);
    nodeLink(fx);
  });
}
