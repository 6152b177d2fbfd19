import { MemoryCredentialStore } from '@svc/node-agent-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceNode } from '../../../examples/reference-node/src/index.js';
import {
  ask,
  INSTALLED_TOOLS,
  toolMissing,
} from '../../../examples/reference-node/tests/support/dns-tools.js';
import {
  MANY_ADDRESSES,
  startTestUpstream,
  type TestUpstream,
} from '../../../examples/reference-node/tests/support/test-upstream.js';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

const tool = INSTALLED_TOOLS[0] ?? 'kdig';
const missing = toolMissing(tool);

/**
 * Issue 35's reproduction, end to end: the reference node answers a real query for a name with 100 A records
 * (truncated over UDP, asked again over TCP by kdig or dig) for a `both` profile, and its log batch is stored
 * by an API with a columnar store, the row's answer cut to the documented cap, instead of being refused with
 * every row sent with it (docs/node-link-protocol.md "Log batches").
 */
describe.skipIf(missing !== undefined)('a node row of a long DNS answer reaches the cloud (issue 35)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let upstream: TestUpstream;
  let node: ReferenceNode | undefined;

  beforeAll(async () => {
    api = await startApi('pglite');
    owner = await createAccount(api);
    upstream = await startTestUpstream();
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await upstream?.close();
    await api?.close();
  });

  it('stores the rows of a 100-record answer retried over TCP, with its first 64 addresses', async () => {
    const profile = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: 'both' } },
    });
    expect(profile.status, profile.text).toBe(201);
    const profileId = (profile.json as { id: string }).id;
    const created = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'reference' },
    });
    node = await ReferenceNode.start({
      apiUrl: api.url,
      credentials: new MemoryCredentialStore(),
      enrolmentCode: (created.json as { enrolment_code: string }).enrolment_code,
      upstream,
      dnsPort: 0,
      dohPort: 0,
      logBatchIntervalMs: 50,
      backoff: { initialMs: 20, maxMs: 200 },
    });
    const started = node;

    const answer = await ask(tool, { port: started.dnsAddress.port, name: 'many.example', edns: true });
    expect(answer.transport).toBe('TCP');
    expect(answer.answers).toHaveLength(MANY_ADDRESSES);
    await started.flushLogs();
    // Asked over UDP (truncated) then TCP: the node logged both, and the cloud kept both.
    const counts = await eventually(
      async () => started.logBatches,
      (settled) => settled.settled >= 2,
    );
    expect(counts).toEqual({ accepted: 2, settled: 2, refused: 0 });

    api.clock.set(new Date(Date.now() + 1_000));
    const logs = await send(`${api.url}/v1/profiles/${profileId}/logs?limit=10`, { headers: owner.auth });
    expect(logs.status, logs.text).toBe(200);
    const { columns, rows } = logs.json as { columns: { name: string }[]; rows: unknown[][] };
    const at = (name: string) => columns.findIndex((column) => column.name === name);
    expect(rows.map((row) => [row[at('qname')], (row[at('answer_ips')] as string[]).length])).toEqual([
      ['many.example', 64],
      ['many.example', 64],
    ]);
  });
});
