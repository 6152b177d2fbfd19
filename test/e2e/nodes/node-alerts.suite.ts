import { CryptoRandom } from '@svc/adapters';
import { MailDispatcher, NodeLogHoldStore, NodeStore, UnitOfWork } from '@svc/domain';
import {
  NodeAlertScheduler,
  NodeAlertSchedulerToken,
  type NodeLinkHub,
  NodeLinkHubToken,
} from '@svc/http-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { accountWithProfile } from '../../support/profiles.js';
import { openLink, type TestLink } from './link-client.js';

const DELAY_MS = 600_000;
const SIX_HOURS_MS = 6 * 60 * 60 * 1000;
const OFFLINE = /Your self-hosted node .* has not been connected for more than 10 minutes\./;
const BACK = /Your self-hosted node .* is connected again\./;

/**
 * Node offline and back alerts (spec 3, 6.4, 8): after the alert delay without the link the organisation's
 * owners are emailed, and again when the node is back; at most one pair per node every 6 h; only to owners
 * whose preference alerts.node_offline is on; never for a revoked node; and of two schedulers running at once
 * only one sends. The scheduler is driven by hand with the manual clock.
 */
export function runNodeAlertSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`node offline alerts on ${storage} (spec 3, 8)`, () => {
    let api: ApiHarness;
    let scheduler: NodeAlertScheduler;
    let hub: NodeLinkHub;
    let dispatcher: MailDispatcher;
    /** The link state the stores keep (every family's hold reads it). */
    let hold: NodeLogHoldStore;

    beforeAll(async () => {
      api = await startApi(storage);
      scheduler = await api.container.getAsync<NodeAlertScheduler>(NodeAlertSchedulerToken);
      // Runs only when a test asks, so that what a run sends is what the test expects.
      await scheduler.stop();
      hub = await api.container.getAsync<NodeLinkHub>(NodeLinkHubToken);
      dispatcher = await api.container.getAsync<MailDispatcher>(MailDispatcher);
      hold = await api.container.getAsync<NodeLogHoldStore>(NodeLogHoldStore);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    /** A new owner with a profile and an enrolled node named `name`. */
    const ownerWithNode = async (name: string) => {
      const { account: owner, profileId } = await accountWithProfile(api, {
        profile: { name: `${name} profile`, settings: { log_destination: 'self-hosted' } },
      });
      const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name },
      });
      expect(node.status, node.text).toBe(201);
      const code = (node.json as { enrolment_code: string }).enrolment_code;
      const enrolled = await send(`${api.url}/v1/nodes/enrol`, {
        method: 'POST',
        body: { enrolment_code: code },
      });
      expect(enrolled.status, enrolled.text).toBe(201);
      const body = enrolled.json as { node: { id: string }; node_token: string };
      return { owner, profileId, nodeId: body.node.id, token: body.node_token };
    };
    type EnrolledNode = Awaited<ReturnType<typeof ownerWithNode>>;
    const connect = async (token: string): Promise<TestLink> => {
      const link = await openLink(api.url, token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail'] });
      await link.next('welcome');
      return link;
    };
    /** The node's stored sighting, and how many links of its profile the database records as open. */
    const storedLink = async ({ owner, profileId, nodeId }: EnrolledNode) => {
      const node = await send(`${api.url}/v1/profiles/${profileId}/nodes/${nodeId}`, { headers: owner.auth });
      expect(node.status, node.text).toBe(200);
      return {
        lastSeenAt: (node.json as { last_seen_at: string | null }).last_seen_at,
        openLinks: (await hold.nodesOf(profileId, new Date(0))).online,
      };
    };
    /**
     * Closes the link and waits until the server let it go and stored the close: link state cleared, close
     * recorded as the last sighting. The hub does not await those writes, and a scheduler claiming while one
     * still holds the node's row skips the row (SKIP LOCKED) until its next run, so a single run right after a
     * drop would find nothing due.
     */
    const drop = async (link: TestLink, node: EnrolledNode) => {
      // A millisecond on, so the close's sighting differs from the hello's and its write can be seen.
      api.clock.advance(1);
      const closedAt = api.clock.now().toISOString();
      link.close();
      await link.closed;
      expect(
        await eventually(
          async () => hub.isConnected(node.nodeId),
          (connected) => !connected,
        ),
      ).toBe(false);
      expect(
        await eventually(
          () => storedLink(node),
          (stored) => stored.lastSeenAt === closedAt && stored.openLinks === 0,
        ),
      ).toEqual({ lastSeenAt: closedAt, openLinks: 0 });
    };
    /** Runs the scheduler and delivers what it queued; answers the alert mails the owner has so far. */
    const runAndRead = async (owner: TestAccount) => {
      await scheduler.runOnce();
      await dispatcher.drain();
      const mails = await api.mailTo(owner.email);
      return {
        offline: mails.filter((text) => OFFLINE.test(text)),
        back: mails.filter((text) => BACK.test(text)),
      };
    };
    const expectMails = async (owner: TestAccount, offline: number, back: number) => {
      const mails = await eventually(
        () => runAndRead(owner),
        (read) => read.offline.length === offline && read.back.length === back,
      );
      expect(mails.offline).toHaveLength(offline);
      expect(mails.back).toHaveLength(back);
      return mails;
    };

    it('mails the owners after the delay without the link, and again when the node is back', async () => {
      const node = await ownerWithNode('garage');
      const { owner, profileId, nodeId, token } = node;
      const link = await connect(token);
      // An open link is never offline, however long the clock runs.
      api.clock.advance(DELAY_MS * 2);
      await expectMails(owner, 0, 0);
      await drop(link, node);

      api.clock.advance(DELAY_MS - 1_000);
      await expectMails(owner, 0, 0);
      api.clock.advance(2_000);
      const { offline } = await expectMails(owner, 1, 0);
      expect(offline[0]).toContain(`Node: garage (${nodeId})`);
      expect(offline[0]).toContain(`Profile: garage profile (${profileId})`);
      // Still offline: no second offline mail.
      api.clock.advance(DELAY_MS);
      await expectMails(owner, 1, 0);

      api.clock.advance(1_000);
      const again = await connect(token);
      const { back } = await expectMails(owner, 1, 1);
      expect(back[0]).toContain(`Node: garage (${nodeId})`);
      await expectMails(owner, 1, 1);
      again.close();
    });

    it('sends at most one pair per node every 6 h', async () => {
      const node = await ownerWithNode('flappy');
      const { owner, token } = node;
      await drop(await connect(token), node);
      api.clock.advance(DELAY_MS + 1_000);
      await expectMails(owner, 1, 0);
      await connect(token);
      await expectMails(owner, 1, 1);

      // A second drop within 6 h of the first offline mail: no new pair.
      let link = await connect(token);
      await drop(link, node);
      api.clock.advance(DELAY_MS + 1_000);
      await expectMails(owner, 1, 1);
      link = await connect(token);
      await expectMails(owner, 1, 1);

      // Once 6 h have passed since the pair began, a new drop alerts again.
      api.clock.advance(SIX_HOURS_MS);
      await expectMails(owner, 1, 1);
      await drop(link, node);
      api.clock.advance(DELAY_MS + 1_000);
      await expectMails(owner, 2, 1);
    });

    it('mails no owner whose preference alerts.node_offline is off', async () => {
      const node = await ownerWithNode('quiet');
      const { owner, token } = node;
      const patched = await send(`${api.url}/v1/auth/me/preferences`, {
        method: 'PATCH',
        headers: { cookie: `svc_session=${owner.cookie}` },
        body: { alerts: { node_offline: false } },
      });
      expect(patched.status, patched.text).toBe(200);
      await drop(await connect(token), node);
      api.clock.advance(DELAY_MS + 1_000);
      await expectMails(owner, 0, 0);
      const link = await connect(token);
      await expectMails(owner, 0, 0);
      link.close();
    });

    it('never alerts for a revoked node', async () => {
      const node = await ownerWithNode('retired');
      const { owner, profileId, nodeId, token } = node;
      await drop(await connect(token), node);
      const revoked = await send(`${api.url}/v1/profiles/${profileId}/nodes/${nodeId}`, {
        method: 'DELETE',
        headers: owner.auth,
      });
      expect(revoked.status, revoked.text).toBe(204);
      api.clock.advance(DELAY_MS + 1_000);
      await expectMails(owner, 0, 0);
    });

    it('sends one mail when two schedulers run at once', async () => {
      const node = await ownerWithNode('contested');
      const { owner, token } = node;
      await drop(await connect(token), node);
      api.clock.advance(DELAY_MS + 1_000);
      const [uow, store] = await Promise.all([
        api.container.getAsync<UnitOfWork>(UnitOfWork),
        api.container.getAsync<NodeStore>(NodeStore),
      ]);
      const schedulerOf = () =>
        new NodeAlertScheduler({
          uow,
          store,
          clock: api.clock,
          random: new CryptoRandom(),
          logger: pino({ level: 'silent' }),
          connectedNodeIds: () => [],
          delaySeconds: DELAY_MS / 1000,
        });
      const runs = await Promise.all([schedulerOf().runOnce(), schedulerOf().runOnce()]);
      expect(runs.reduce((sum, run) => sum + run.offline, 0)).toBeGreaterThanOrEqual(1);
      await dispatcher.drain();
      const mails = await eventually(
        async () => (await api.mailTo(owner.email)).filter((text) => OFFLINE.test(text)),
        (texts) => texts.length >= 1,
      );
      await dispatcher.drain();
      expect(mails).toHaveLength(1);
      expect((await api.mailTo(owner.email)).filter((text) => OFFLINE.test(text))).toHaveLength(1);
    });
  });
}
