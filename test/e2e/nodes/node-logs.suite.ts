import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { nodeLogBatches } from './node-logs.batches.js';
import { useNodeLogsFixture } from './node-logs.fixture.js';
import { nodeLogOfflineHold } from './node-logs.offline-hold.js';
import { nodeLogStreamAndLedger } from './node-logs.stream-and-ledger.js';

/**
 * Node log batches and the offline hold through HTTP and a real WebSocket (spec 1.6, 2.3 node_queue_hours and
 * log_destination, 2.11, 4.6, 6.1; docs/node-link-protocol.md): batches of `both` profiles stored once and
 * read back through GET …/logs, bad rows refused one by one and long answers cut, edge rows held while a self-hosted profile's node
 * is offline and delivered in order exactly once on reconnect, node_queue_hours 0 and expiry, the kit's
 * `onHeldLogs`, and the live stream's `partial` event while the node reconnects.
 */
export function runNodeLogsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`node log batches and offline hold on ${storage} (2.3, 6.1)`, () => {
    const fx = useNodeLogsFixture(storage);
    nodeLogBatches(fx);
    nodeLogOfflineHold(fx);
    nodeLogStreamAndLedger(fx);
  });
}
