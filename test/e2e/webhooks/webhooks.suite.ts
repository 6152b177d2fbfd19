import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { describeWebhookAccess } from './webhooks.access.js';
import { describeWebhookDelivery } from './webhooks.delivery.js';
import { describeWebhooksOfDeletedAccount } from './webhooks.erasure.js';
import { describeWebhookEvents } from './webhooks.events.js';
import { describeFailingEndpoint } from './webhooks.failing.js';
import { useWebhooksFixture } from './webhooks.fixture.js';
import { describeMemberEvents } from './webhooks.members.js';
import { describeDeliveryRetention } from './webhooks.retention.js';
import { describeTwoServers } from './webhooks.servers.js';

/** Signed webhooks (issue 40) on `storage`, against a real receiver on loopback. */
export function runWebhooksSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`webhooks (${storage})`, () => {
    const fixture = useWebhooksFixture(storage);
    // First: creating a token needs a sign-in within five minutes, before the other tests move the clock.
    describeWebhookEvents(fixture);
    describeMemberEvents(fixture);
    describeWebhookDelivery(fixture);
    describeFailingEndpoint(fixture);
    describeDeliveryRetention(fixture);
    describeTwoServers(fixture);
    describeWebhooksOfDeletedAccount(fixture);
    describeWebhookAccess(fixture);
  });
}
