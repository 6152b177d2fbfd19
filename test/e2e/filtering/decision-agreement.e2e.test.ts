import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainSet, type FilterList, type OperatorBlockEntry, type ProfileRules } from '@svc/domain';
import { type SimulatedDecision, simulatedDecisions } from '@svc/edge-simulator';
import { ListPipelineServiceToken } from '@svc/http-server';
import { loggedDecision, MemoryCredentialStore, NodeFilter } from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceNode } from '../../../examples/reference-node/src/index.js';
import {
  answerData,
  edeOf,
  queryMessage,
  rcodeOf,
  udpExchange,
} from '../../../examples/reference-node/tests/support/dns-client.js';
import {
  startTestUpstream,
  type TestUpstream,
  UPSTREAM_V4,
} from '../../../examples/reference-node/tests/support/test-upstream.js';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

const NXDOMAIN = 3;
/** List 1 is a hosts list (exact names), list 2 adblock-style (a name and everything under it, `@@` exceptions). */
const HOSTS_LIST = { id: 1, text: '0.0.0.0 tracker.agree.example\n0.0.0.0 both.agree.example\n' };
const ADBLOCK_LIST = {
  id: 2,
  text: '||ads.agree.example^\n@@||fine.ads.agree.example^\n||both.agree.example^\n||allowed.agree.example^\n',
};
const RULES: ProfileRules = {
  deny: ['deny.agree.example', '=exact.agree.example', '*.under.agree.example'],
  allow: ['allowed.agree.example', 'court.agree.example'],
  rewrites: [
    { pattern: 'router.agree.example', answer: '192.168.1.1' },
    { pattern: 'ads.agree.example', answer: '192.0.2.99' },
  ],
};
/** Names that go through every step of the decision, and some that nothing decides. */
const NAMES = [
  'court.agree.example',
  'www.court.agree.example',
  'allowed.agree.example',
  'x.allowed.agree.example',
  'deny.agree.example',
  'a.deny.agree.example',
  'exact.agree.example',
  'www.exact.agree.example',
  'under.agree.example',
  'a.under.agree.example',
  'tracker.agree.example',
  'www.tracker.agree.example',
  'ads.agree.example',
  'deep.sub.ads.agree.example',
  'fine.ads.agree.example',
  'x.fine.ads.agree.example',
  'both.agree.example',
  'router.agree.example',
  'www.router.agree.example',
  'Tracker.Agree.Example.',
  'news.example',
];

/** The decision as the three views can all state it: the log's fields, the EDE and how a block answers. */
type Agreed = Pick<
  SimulatedDecision,
  'status' | 'listId' | 'listName' | 'rule' | 'operatorCode' | 'ede' | 'edeText' | 'blockMode'
>;

const agreed = (decision: Agreed): Agreed => ({
  status: decision.status,
  listId: decision.listId,
  listName: decision.listName,
  rule: decision.rule,
  operatorCode: decision.operatorCode,
  ede: decision.ede,
  edeText: decision.edeText,
  blockMode: decision.blockMode,
});

/**
 * Issue 29, "one pure decision function (shared by `svc simulate`, the reference node and any edge built on
 * the kit)": the same profile document, compiled lists and operator blocks file decide a set of names alike in
 * the edge simulator, in the kit's NodeFilter (a fresh one loading the node's last good set from disk) and in
 * the reference node as a DNS client sees it (rcode, EDE, answers) and as its query log records it.
 */
describe('one decision for every edge (issue 29)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let operator: TestOperator;
  let upstream: TestUpstream;
  let node: ReferenceNode;
  let directory: string;
  let profileId: string;
  let document: NodeProfileDocument;

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
    operator = await createOperator(api);
    upstream = await startTestUpstream();
    directory = await mkdtemp(join(tmpdir(), 'decision-agreement-'));
    const pipeline = await api.container.getAsync<{
      importList(id: number, body: AsyncIterable<Uint8Array>): Promise<unknown>;
    }>(ListPipelineServiceToken);
    for (const list of [HOSTS_LIST, ADBLOCK_LIST])
      await pipeline.importList(
        list.id,
        (async function* () {
          yield Buffer.from(list.text);
        })(),
      );
    const profile = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'agree', settings: { log_destination: 'self-hosted', block_mode: 'null' } },
    });
    expect(profile.status, profile.text).toBe(201);
    profileId = (profile.json as { id: string }).id;
    for (const [path, body] of [
      ['rules', RULES],
      ['lists', { lists: [HOSTS_LIST.id, ADBLOCK_LIST.id] }],
    ] as const) {
      const put = await send(`${api.url}/v1/profiles/${profileId}/${path}`, {
        method: 'PUT',
        headers: owner.auth,
        body,
      });
      expect(put.status, put.text).toBe(200);
    }
    const block = await send(`${api.url}/v1/admin/operator-blocks`, {
      method: 'POST',
      headers: operator.admin,
      body: { pattern: 'court.agree.example', reason_code: 'legal_order', public_ref: 'Order 7' },
    });
    expect(block.status, block.text).toBe(201);
    const created = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'agreement' },
    });
    expect(created.status, created.text).toBe(201);
    node = await ReferenceNode.start({
      apiUrl: api.url,
      credentials: new MemoryCredentialStore(),
      enrolmentCode: (created.json as { enrolment_code: string }).enrolment_code,
      filterDirectory: directory,
      upstream,
      dnsPort: 0,
      dohPort: 0,
      backoff: { initialMs: 20, maxMs: 200 },
    });
    // The lists are downloaded before the document applies; the operator file arrives over the link, and is
    // acknowledged once it is on disk.
    await eventually(
      async () => {
        const kept = await readFile(join(directory, 'operator-blocks.json'), 'utf8').catch(() => '{}');
        return (JSON.parse(kept) as { version?: number }).version ?? 0;
      },
      (version) => version > 0,
      10_000,
    );
    document = node.filter.profile as NodeProfileDocument;
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await Promise.all([upstream?.close(), api?.close()]);
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  /** The simulator's decisions, from what the cloud holds: the artifacts as served, the operator's blocks. */
  const simulated = async (): Promise<Agreed[]> => {
    const compiledLists: FilterList[] = [];
    for (const artifact of document.lists.artifacts) {
      const answer = await request(artifact.url, {
        headers: { authorization: `Bearer ${node.agent.nodeToken}` },
      });
      expect(answer.statusCode).toBe(200);
      compiledLists.push({
        listId: artifact.list_id,
        kind: artifact.kind,
        name: artifact.name,
        set: DomainSet.fromArtifact(new Uint8Array(await answer.body.arrayBuffer())),
      });
    }
    const blocks = await send(`${api.url}/v1/admin/operator-blocks`, { headers: operator.admin });
    expect(blocks.status, blocks.text).toBe(200);
    const listed = blocks.json as { blocks?: OperatorBlockEntry[]; data?: OperatorBlockEntry[] };
    const operatorBlocks = listed.blocks ?? listed.data ?? [];
    expect(operatorBlocks.map((entry) => entry.pattern)).toEqual(['court.agree.example']);
    return simulatedDecisions(
      {
        settings: { block_mode: 'null' },
        rules: RULES,
        lists: compiledLists.map((list) => ({ id: list.listId, name: list.name })),
        suspended: false,
        compiledLists,
        operatorBlocks,
      },
      NAMES,
    ).map(agreed);
  };

  it('the node applied the manifest of both lists and the operator file through the kit', () => {
    expect(document.lists.artifacts.map((artifact) => artifact.list_id)).toEqual([1, 2]);
    expect(node.filter.lists.current.map((list) => list.listId)).toEqual([1, 2]);
  });

  it('the simulator and the kit (a fresh filter from the node’s disk) decide every name alike', async () => {
    const kit = new NodeFilter({ directory, token: () => node.agent.nodeToken });
    expect(await kit.loadLastGood()).toBe(true);
    const byKit = NAMES.map((name) => {
      const decision = kit.decide({ name, at: Date.now() });
      return agreed({ ...decision, ...loggedDecision(decision) });
    });
    const bySimulator = await simulated();
    expect(byKit).toEqual(bySimulator);
    // Every step of the decision is among them, so agreeing is not agreeing on "forward".
    expect(new Set(byKit.map((decision) => `${decision.status} ${decision.ede} ${decision.listId}`))).toEqual(
      new Set([
        'blocked 15 null',
        'allowed 0 null',
        'blocked 17 null',
        'blocked 17 1',
        'blocked 17 2',
        'rewritten 0 null',
      ]),
    );
    expect(byKit[NAMES.indexOf('court.agree.example')]).toMatchObject({
      status: 'blocked',
      operatorCode: 'legal_order',
      ede: 15,
      edeText: 'Order 7',
      blockMode: 'nxdomain',
    });
    expect(byKit[NAMES.indexOf('fine.ads.agree.example')]).toMatchObject({ status: 'rewritten' });
  });

  it('the reference node answers a DNS client and logs each name as the simulator decided it', async () => {
    const bySimulator = await simulated();
    for (const [index, name] of NAMES.entries()) {
      const expected = bySimulator[index] as Agreed;
      const answer = await udpExchange(node.dnsAddress, queryMessage(name, 'A', undefined, {}));
      const seen = { rcode: rcodeOf(answer), ede: edeOf(answer), answers: answerData(answer) };
      if (expected.status === 'blocked') {
        expect(seen, name).toEqual(
          expected.blockMode === 'nxdomain'
            ? { rcode: NXDOMAIN, ede: { code: expected.ede, text: expected.edeText }, answers: [] }
            : { rcode: 0, ede: { code: expected.ede, text: expected.edeText }, answers: ['A 0.0.0.0'] },
        );
      } else if (expected.status === 'rewritten') {
        expect(seen, name).toMatchObject({ rcode: 0, ede: null });
        expect(seen.answers.at(-1), name).toMatch(/^A (192\.168\.1\.1|192\.0\.2\.99)$/);
      } else expect(seen, name).toEqual({ rcode: 0, ede: null, answers: [`A ${UPSTREAM_V4}`] });
      const row = [...node.store.newestFirst()][0];
      expect(
        {
          status: row?.status,
          listId: row?.reason_list_id,
          listName: row?.reason_list_name,
          rule: row?.reason_rule,
          operatorCode: row?.operator_code,
        },
        name,
      ).toEqual({
        status: expected.status,
        listId: expected.listId,
        listName: expected.listName,
        rule: expected.rule,
        operatorCode: expected.operatorCode,
      });
    }
  });
});
