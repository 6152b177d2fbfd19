import type { ListPipelineService } from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import {
  enrolNode,
  MemoryCredentialStore,
  NodeAgent,
  type NodeAgentLogger,
  ProfileDocumentRefusedError,
  UnsupportedShapeError,
} from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { type ProfileSwapProxy, startProfileSwapProxy } from './profile-swap-proxy.js';

/** A logger that keeps what the agent warned about. */
function recordingLogger(): NodeAgentLogger & {
  lines: { message: string; details: Record<string, unknown> }[];
} {
  const lines: { message: string; details: Record<string, unknown> }[] = [];
  return { lines, warn: (message, details) => lines.push({ message, details }) };
}

/**
 * A node applies only its own profile's documents, never older than the one applied (issue 27, finding 8):
 * the server signs every profile's document with the same key, so a signature alone does not tell a node
 * that a document is for it, nor that it is current. The documents here are real ones signed by the server,
 * served to the kit by a man in the middle.
 */
describe('node-agent-kit refuses signed documents that are not its current profile (4.13)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let proxy: ProfileSwapProxy;
  const agents: NodeAgent[] = [];

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
    proxy = await startProfileSwapProxy(api.url);
  }, 60_000);
  afterEach(async () => {
    proxy.swap(undefined);
    for (const agent of agents.splice(0)) await agent.stop();
  });
  afterAll(async () => {
    await proxy?.close();
    await api?.close();
  });

  const profile = async (): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: 'self-hosted' } },
    });
    return (created.json as { id: string }).id;
  };
  const enrol = async (profileId: string, store = new MemoryCredentialStore()) => {
    const created = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'checked' },
    });
    await enrolNode({
      baseUrl: api.url,
      enrolmentCode: (created.json as { enrolment_code: string }).enrolment_code,
      version: '1.0.0',
      shapes: [],
      store,
    });
    return store;
  };
  const startAgent = async (store: MemoryCredentialStore) => {
    const applied: NodeProfileDocument[] = [];
    const rejected: Error[] = [];
    const logger = recordingLogger();
    const agent = new NodeAgent({
      baseUrl: proxy.url,
      store,
      version: '1.0.0',
      shapes: [],
      handler: {
        answer: async (shape) => {
          throw new UnsupportedShapeError(shape);
        },
      },
      onProfile: (document) => {
        applied.push(document);
      },
      onRejectedProfile: (error) => rejected.push(error),
      logger,
      backoff: { initialMs: 20, maxMs: 200 },
    });
    agents.push(agent);
    return { agent, applied, rejected, logger, started: agent.start() };
  };
  const rename = async (profileId: string, name: string) => {
    const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
      method: 'PATCH',
      headers: owner.auth,
      body: { name },
    });
    expect(patched.status).toBe(200);
  };
  const documentOf = async (store: MemoryCredentialStore): Promise<NodeProfileDocument> => {
    const token = (await store.load())?.nodeToken ?? '';
    const answer = await send(`${api.url}/v1/nodes/self/profile`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return answer.json as NodeProfileDocument;
  };

  it('stays unlinked when stopped while it was still fetching its profile', async () => {
    const store = await enrol(await profile());
    const hold = proxy.holdProfile();
    const upgradesBefore = proxy.upgrades;
    const { agent, started } = await startAgent(store);
    await hold.requested;
    await agent.stop();
    hold.release();
    await started;
    expect(proxy.upgrades).toBe(upgradesBefore);
    expect(agent.connected).toBe(false);
  });

  it('refuses a correctly signed document of another profile, logs why, and keeps the applied one', async () => {
    const mine = await profile();
    const theirs = await profile();
    const { agent, applied, rejected, logger, started } = await startAgent(await enrol(mine));
    await started;
    expect(applied.map((document) => [document.id, document.version])).toEqual([[mine, 1]]);
    const foreign = await documentOf(await enrol(theirs));
    expect(foreign.profile_signature).toBeDefined();

    proxy.swap(foreign);
    await rename(mine, 'changed');
    await eventually(
      async () => rejected.length,
      (count) => count > 0,
    );
    expect(rejected[0]).toBeInstanceOf(ProfileDocumentRefusedError);
    expect(rejected[0]).toMatchObject({ reason: 'other_profile' });
    expect(logger.lines).toEqual([
      {
        message: expect.stringContaining(`is for profile ${theirs}, not ${mine}`),
        details: expect.objectContaining({ reason: 'other_profile', document_profile_id: theirs }),
      },
    ]);
    expect(applied).toHaveLength(1);
    expect(agent.profileVersion).toBe(1);

    // The genuine document is applied again once the tampering stops.
    proxy.swap(undefined);
    await rename(mine, 'changed again');
    await eventually(
      async () => agent.profileVersion,
      (version) => version === 3,
    );
    expect(applied.map((document) => [document.id, document.version])).toEqual([
      [mine, 1],
      [mine, 3],
    ]);
  });

  it('refuses a replayed older version, also after a restart (the applied version is persisted)', async () => {
    const mine = await profile();
    const store = await enrol(mine);
    const first = await startAgent(store);
    await first.started;
    const versionOne = await documentOf(store);
    await rename(mine, 'second');
    await eventually(
      async () => first.agent.profileVersion,
      (version) => version === 2,
    );
    expect((await store.load())?.appliedProfileVersion).toBe(2);

    proxy.swap(versionOne);
    await rename(mine, 'third');
    await eventually(
      async () => first.rejected.length,
      (count) => count > 0,
    );
    expect(first.rejected[0]).toMatchObject({ reason: 'older_version' });
    expect(first.logger.lines[0]?.message).toContain('version 1, older than version 2 already applied');
    expect(first.applied.map((document) => document.version)).toEqual([1, 2]);
    await first.agent.stop();

    // A restarted node reads the version it applied from its store and refuses the replay at start.
    const restarted = await startAgent(store);
    await expect(restarted.started).rejects.toBeInstanceOf(ProfileDocumentRefusedError);
    expect(restarted.applied).toEqual([]);
    expect(restarted.logger.lines[0]?.details).toMatchObject({
      reason: 'older_version',
      document_version: 1,
      applied_version: 2,
    });
  });

  it('refuses a document from before a list refresh replayed with the same version, also after a restart (issue 35)', async () => {
    const importList = async (text: string) => {
      const pipeline = await api.container.getAsync<ListPipelineService>(ListPipelineServiceToken);
      await pipeline.importList(
        6,
        (async function* () {
          yield Buffer.from(text);
        })(),
      );
    };
    const mine = await profile();
    const chosen = await send(`${api.url}/v1/profiles/${mine}/lists`, {
      method: 'PUT',
      headers: owner.auth,
      body: { lists: [6] },
    });
    expect(chosen.status, chosen.text).toBe(200);
    await importList('first.replay-fixture.example\n');
    const store = await enrol(mine);
    const first = await startAgent(store);
    await first.started;
    const beforeRefresh = await documentOf(store);
    expect(beforeRefresh.sequence).toBe(first.applied[0]?.sequence);

    // A list refresh: a new manifest under the same profile version, issued later.
    api.clock.advance(1_000);
    await importList('second.replay-fixture.example\n');
    await eventually(
      async () => first.applied.length,
      (count) => count === 2,
    );
    const [applied, refreshed] = first.applied;
    expect(refreshed?.version).toBe(applied?.version);
    expect(refreshed?.lists.sha256).not.toBe(applied?.lists.sha256);
    expect(refreshed?.sequence).toBeGreaterThan(beforeRefresh.sequence ?? Number.POSITIVE_INFINITY);
    expect((await store.load())?.appliedProfileSequence).toBe(refreshed?.sequence);

    // The earlier document, correctly signed and of the same version, replayed at the next refresh.
    proxy.swap(beforeRefresh);
    api.clock.advance(1_000);
    await importList('third.replay-fixture.example\n');
    await eventually(
      async () => first.rejected.length,
      (count) => count > 0,
    );
    expect(first.rejected[0]).toBeInstanceOf(ProfileDocumentRefusedError);
    expect(first.rejected[0]).toMatchObject({ reason: 'older_sequence' });
    expect(first.logger.lines[0]?.details).toMatchObject({
      reason: 'older_sequence',
      document_sequence: beforeRefresh.sequence,
      applied_sequence: refreshed?.sequence,
    });
    expect(first.applied).toHaveLength(2);
    await first.agent.stop();

    // A restarted node reads the sequence it applied from its store and refuses the replay at start.
    const restarted = await startAgent(store);
    await expect(restarted.started).rejects.toMatchObject({ reason: 'older_sequence' });
    expect(restarted.applied).toEqual([]);
  });
});
