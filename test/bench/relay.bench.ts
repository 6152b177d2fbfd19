import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EdgeLogWriter, KeyedHash, NodeSecretPurpose, type QueryLogRow, UnitOfWork } from '@svc/domain';
import {
  createTestApp,
  type NodeLinkHub,
  NodeLinkHubToken,
  parseSettings,
  startServer,
} from '@svc/http-server';
import { MemoryCredentialStore } from '@svc/node-agent-kit';
import { createOwner } from '@svc/testing/node-api-owner';
import type { Container } from 'inversify';
import pino from 'pino';
import WebSocket from 'ws';
import {
  type QueryToRecord,
  ReferenceNode,
  RelayedQueryHandler,
} from '../../examples/reference-node/src/index.js';
import { startTestUpstream } from '../../examples/reference-node/tests/support/test-upstream.js';
import { createBenchAccount } from './bench-account.js';
import { exited } from './bench-processes.js';

/**
 * Part of `npm run bench` (issue 8, "Performance"):
 * `node --conditions=source --import tsx test/bench/relay.bench.ts [--links N]`.
 *
 * 1. Relay: one API server on the embedded engines (PGlite + chdb) in a process of its own, with the reference
 *    node (examples/reference-node) enrolled and linked in the same process. The same 10,000 query rows are put
 *    in the node's store (a self-hosted profile) and in the columnar store (a cloud profile, through the
 *    server's own edge writer), then GET /v1/profiles/{id}/logs?limit=100 is timed for each, one client,
 *    sequentially; also a `none` profile (the API pipeline with no store) and the node's own answer time.
 *    The hub's own round trip (hub.relay, no HTTP) is timed too: relay overhead is that less the node's own
 *    answer, i.e. the link there and back, the hub's bookkeeping and its checks of the answer.
 * 2. Idle links: an engine-free API server (in-memory stores) in a process of its own; N enrolled nodes (2,000
 *    unless --links N) are written through the node repository in one transaction, then a client process
 *    opens a tenth of their links (hello, welcome: the warm-up), then the rest, and leaves them idle. The
 *    server's RSS and heap + external memory after a full GC, before and after the rest, give the memory of
 *    one link, and from it the links that 50 MB hold.
 * Phase 1's timed rounds stop after BENCH_RELAY_SECONDS (20) at most; phase 2 is bounded by N.
 * The machine's load is printed with the figures: other work on it moves them.
 */
const TSX = ['--conditions=source', '--import', 'tsx'];
const THIS_FILE = fileURLToPath(import.meta.url);
const ROWS = Number(process.env.BENCH_RELAY_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RELAY_RUNS ?? 200);
const WARM_UP = 5;
const PHASE_SECONDS = Number(process.env.BENCH_RELAY_SECONDS ?? 20);
const RELAY_TARGET_MS = 5;
const LINKS_TARGET = 10_000;
const MEMORY_BUDGET_MB = 50;
const args = process.argv.slice(2);
const argument = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const LINKS = Number(argument('--links') ?? 2_000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function machineLoad(): string {
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  return `${uptime} (${cpus().length} cores; load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')})`;
}

interface Timing {
  p50: number;
  p99: number;
  runs: number;
}

/**
 * Times each of `parts` in turn, round after round (so that the machine's other load falls on all of them
 * alike), after WARM_UP untimed rounds, for RUNS rounds or until `deadline` (ms since the epoch).
 */
async function interleaved<Name extends string>(
  parts: Record<Name, () => Promise<void>>,
  deadline: number,
): Promise<Record<Name, Timing>> {
  const names = Object.keys(parts) as Name[];
  const durations = new Map<Name, number[]>(names.map((name) => [name, []]));
  for (let round = -WARM_UP; round < RUNS && Date.now() < deadline; round += 1) {
    for (const name of names) {
      const started = performance.now();
      await parts[name]();
      if (round >= 0) durations.get(name)?.push(performance.now() - started);
    }
  }
  const timings = {} as Record<Name, Timing>;
  for (const name of names) {
    const sorted = (durations.get(name) ?? []).sort((a, b) => a - b);
    timings[name] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), runs: sorted.length };
  }
  return timings;
}

const show = (timing: Timing) =>
  `p50 ${timing.p50.toFixed(2)} ms, p99 ${timing.p99.toFixed(2)} ms (${timing.runs} runs)`;

/** A recorded query of the seeded log: names, statuses and transports varied, as a household's. */
function seededQuery(index: number): QueryToRecord {
  const status = index % 10 === 0 ? 'blocked' : index % 50 === 1 ? 'rewritten' : 'allowed';
  return {
    pop: 'node',
    device_id: '',
    device_name: '',
    client_ip: `192.0.2.${index % 250}`,
    transport: index % 3 === 0 ? 'doh' : 'do53',
    qname: `host${index % 500}.example${index % 7}.com`,
    qtype: index % 4 === 0 ? 28 : 1,
    status,
    reason_list_id: null,
    reason_list_name: '',
    reason_rule: status === 'allowed' ? '' : `example${index % 7}.com`,
    operator_code: '',
    rcode: status === 'blocked' ? 3 : 0,
    dnssec_validated: false,
    cache_hit: false,
    latency_us: 200 + (index % 900),
    answer_ips: status === 'allowed' ? [`203.0.113.${index % 200}`] : [],
  };
}

/** The same query as a cloud row of `profileId`. */
function cloudRow(query: QueryToRecord, profileId: string, ts: Date, rowId: string): QueryLogRow {
  return {
    profileId,
    ts,
    rowId,
    pop: 'yul',
    node: null,
    deviceId: query.device_id,
    deviceName: query.device_name,
    clientIp: query.client_ip,
    transport: query.transport,
    qname: query.qname,
    qtype: query.qtype,
    status: query.status,
    reasonListId: null,
    reasonListName: '',
    reasonRule: query.reason_rule,
    operatorCode: '',
    rcode: query.rcode,
    dnssecValidated: false,
    cacheHit: false,
    latencyUs: query.latency_us,
    answerIps: query.answer_ips,
  };
}

async function getJson(url: string, token: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}

async function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201)
    throw new Error(`POST ${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Phase 1 (a process of its own): relayed tail next to the columnar one. */
async function relayPhase(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-relay-'));
  const server = await startServer({
    settings: parseSettings({
      SVC_ENV: 'development',
      PORT: '0',
      SVC_SECRET: 'bench-secret-that-is-long-enough-for-hkdf-0123456789',
      SVC_DATA_DIR: dataDir,
      // Sequential relays answer hundreds of queries a second over one link: far above a node's budget,
      // which would close the link (and the kit would pace its answers), so the bench lifts it.
      SVC_NODE_LINK_MESSAGES_PER_SECOND: '100000',
    }),
    logger: pino({ level: 'warn' }),
    storage: 'engines',
  });
  const upstream = await startTestUpstream();
  let node: ReferenceNode | undefined;
  try {
    const { token } = await createBenchAccount(server.url, dataDir, [
      'account:read',
      'profiles:read',
      'profiles:write',
      'logs:read',
    ]);
    const profile = async (destination: string) =>
      String(
        (await post(`${server.url}/v1/profiles`, token, { settings: { log_destination: destination } })).id,
      );
    const selfHosted = await profile('self-hosted');
    const cloud = await profile('cloud');
    const none = await profile('none');
    const created = await post(`${server.url}/v1/profiles/${selfHosted}/nodes`, token, { name: 'bench' });
    node = await ReferenceNode.start({
      apiUrl: server.url,
      credentials: new MemoryCredentialStore(),
      enrolmentCode: String(created.enrolment_code),
      upstream,
      dnsPort: 0,
      dohPort: 0,
    });

    const now = Date.now();
    const cloudRows: QueryLogRow[] = [];
    for (let index = 0; index < ROWS; index += 1) {
      const query = seededQuery(index);
      node.store.append(query);
      cloudRows.push(cloudRow(query, cloud, new Date(now - (ROWS - index) * 10), String(1_000_000 + index)));
    }
    const writer = await server.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
    await writer.writeRows(cloudRows, 30);

    const tail = (profileId: string) => async () => {
      const answer = await getJson(`${server.url}/v1/profiles/${profileId}/logs?limit=100`, token);
      const rows = (answer.json as { rows?: unknown[] }).rows?.length;
      if (answer.status !== 200 || (profileId !== none && rows !== 100))
        throw new Error(
          `tail of ${profileId} answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`,
        );
    };
    const handler = new RelayedQueryHandler(node.store);
    const params = {
      profile_id: selfHosted,
      from: null,
      to: new Date(Date.now() + 3_600_000).toISOString(),
      devices: [],
      statuses: [],
      qname: null,
      qname_match: 'exact',
      qtypes: [],
      lists: [],
      client_ip: null,
      limit: 100,
      bucket_s: 3600,
      after: null,
    };
    const signal = new AbortController().signal;
    const me = await getJson(`${server.url}/v1/auth/me`, token);
    const orgId = (me.json as { account: { org_id: string } }).account.org_id;
    const hub = await server.container.getAsync<NodeLinkHub>(NodeLinkHubToken);
    const { relayed, link, answering, pipeline, columnar } = await interleaved(
      {
        relayed: tail(selfHosted),
        // The hub's own round trip: the query sent on the link, answered by the node, checked, and back.
        link: async () => {
          await hub.relay(orgId, selfHosted, 'tail', params);
        },
        // The rows travel as JSON on the link: serialising them is part of the node's answer.
        answering: async () => {
          JSON.stringify(await handler.answer('tail', params, signal));
        },
        pipeline: tail(none),
        columnar: tail(cloud),
      },
      Date.now() + PHASE_SECONDS * 1000,
    );
    // What relaying adds to answering the same rows from a store in the API's process: the query and the rows
    // over the link and back, the hub's bookkeeping and its checks of the answer.
    const overhead = link.p50 - answering.p50;
    process.stdout.write(
      [
        `machine: ${machineLoad()}`,
        `tail of 100 rows of ${ROWS.toLocaleString('en')}, through GET /v1/profiles/{id}/logs, one client:`,
        `  relayed (API → link → reference node → back)  ${show(relayed)}`,
        `  columnar store (chdb, cloud profile)           ${show(columnar)}`,
        `  API without a store (log destination none)      ${show(pipeline)}`,
        `  the link alone (hub → node → hub, no HTTP)       ${show(link)}`,
        `  the node's own answer (store scan + JSON)       ${show(answering)}`,
        `relay overhead p50 (the link alone less the node's own answer): ${overhead.toFixed(2)} ms; target < ${RELAY_TARGET_MS} ms: ${
          overhead < RELAY_TARGET_MS ? 'met' : 'NOT met'
        }`,
        `relayed less columnar, p50: ${(relayed.p50 - columnar.p50).toFixed(2)} ms (negative: the node answered sooner)`,
        '',
      ].join('\n'),
    );
  } finally {
    await node?.stop();
    await upstream.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `count` enrolled nodes of the profile written through the node repository in one transaction (the
 * enrolment use case takes a transaction, an audit entry and a snapshot of the in-memory stores per node,
 * which is what makes thousands slow); their tokens are stored as the use case stores them, keyed hashes.
 */
async function insertEnrolledNodes(
  container: Container,
  orgId: string,
  profileId: string,
  count: number,
): Promise<string[]> {
  const uow = await container.getAsync<UnitOfWork>(UnitOfWork);
  const keyedHash = await container.getAsync<KeyedHash>(KeyedHash);
  const now = new Date();
  const tokens = Array.from(
    { length: count },
    () => `svcnode_${randomBytes(39).toString('base64url').replace(/[-_]/g, 'x').slice(0, 52)}`,
  );
  await uow.run(async (tx) => {
    for (const [index, token] of tokens.entries()) {
      await tx.nodes.insert({
        id: randomUUID(),
        orgId,
        profileId,
        name: `idle-${index}`,
        state: 'enrolled',
        enrolmentLookup: keyedHash.mac(NodeSecretPurpose.enrolment, `svcenrol_bench${index}`),
        enrolmentExpiresAt: now,
        tokenLookup: keyedHash.mac(NodeSecretPurpose.token, token),
        previousTokenLookup: null,
        previousValidUntil: null,
        tokenRotatedAt: null,
        softwareVersion: 'bench',
        shapes: [],
        createdAt: now,
        enrolledAt: now,
        revokedAt: null,
        lastSeenAt: now,
      });
    }
  });
  return tokens;
}

/** Phase 2 (a process of its own): the memory of idle links on an engine-free server. */
async function linksPhase(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const app = await createTestApp({ env: { SVC_RATE_LIMIT_PER_MINUTE: '100000' } });
  const tokensFile = join(mkdtempSync(join(tmpdir(), 'svc-bench-links-')), 'tokens.json');
  let clients: ChildProcess | undefined;
  try {
    const owner = await createOwner(app.url, (address) =>
      app.mailer.to(address).map((mail) => mail.text ?? ''),
    );
    const bearer = owner.auth.authorization?.replace('Bearer ', '') ?? '';
    const profileId = String(
      (await post(`${app.url}/v1/profiles`, bearer, { settings: { log_destination: 'self-hosted' } })).id,
    );
    const me = await getJson(`${app.url}/v1/auth/me`, bearer);
    const orgId = (me.json as { account: { org_id: string } }).account.org_id;
    const started = Date.now();
    const tokens = await insertEnrolledNodes(app.container, orgId, profileId, LINKS);
    writeFileSync(tokensFile, JSON.stringify(tokens));
    const createdIn = (Date.now() - started) / 1000;
    const measure = () => {
      gc();
      gc();
      const usage = process.memoryUsage();
      // JS memory: the heap plus what lives outside it (socket and message buffers).
      return { rss: usage.rss / 1_048_576, js: (usage.heapUsed + usage.external) / 1_048_576 };
    };
    clients = spawn(
      process.execPath,
      [...TSX, THIS_FILE, '--phase', 'link-clients', '--url', app.url, '--tokens', tokensFile],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const welcomed = welcomedCounts(clients);
    // A first tenth of the links warms up what every link shares (ws, the hub's maps), outside the figures.
    const warm = await welcomed.next();
    await settle();
    const before = measure();
    clients.stdin?.write('more\n');
    const all = await welcomed.next();
    await settle();
    const after = measure();
    const counted = all - warm;
    const rssKb = ((after.rss - before.rss) * 1024) / counted;
    const jsKb = ((after.js - before.js) * 1024) / counted;
    const held = Math.floor((MEMORY_BUDGET_MB * 1024) / Math.max(rssKb, jsKb));
    process.stdout.write(
      [
        `machine: ${machineLoad()}`,
        `idle node links on one engine-free API server: ${all.toLocaleString('en')} open, ${counted.toLocaleString('en')} measured (nodes written in ${createdIn.toFixed(1)} s)`,
        `  RSS             ${before.rss.toFixed(1)} → ${after.rss.toFixed(1)} MB: ${rssKb.toFixed(2)} KB a link`,
        `  heap + external ${before.js.toFixed(1)} → ${after.js.toFixed(1)} MB: ${jsKb.toFixed(2)} KB a link`,
        `links held at ${MEMORY_BUDGET_MB} MB of extra memory (by the larger of the two): ~${held.toLocaleString('en')}; target ≥ ${LINKS_TARGET.toLocaleString('en')}: ${
          held >= LINKS_TARGET ? 'met' : 'NOT met'
        }`,
        '',
      ].join('\n'),
    );
  } finally {
    if (clients !== undefined) {
      clients.stdin?.end();
      await exited(clients);
    }
    await app.close();
    rmSync(join(tokensFile, '..'), { recursive: true, force: true });
  }
}

/** Lets the server finish the hellos' bookkeeping before a measurement. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1_000));
}

/** The `welcomed N` lines of the client process, one at a time. */
function welcomedCounts(child: ChildProcess): { next(): Promise<number> } {
  const counts: number[] = [];
  const waiting: ((count: number) => void)[] = [];
  let failure: Error | undefined;
  const failed: ((error: Error) => void)[] = [];
  if (child.stdout === null) throw new Error('no stdout');
  createInterface({ input: child.stdout }).on('line', (line) => {
    const count = Number(/^welcomed (\d+)$/.exec(line)?.[1] ?? Number.NaN);
    if (Number.isNaN(count)) return;
    const waiter = waiting.shift();
    if (waiter === undefined) counts.push(count);
    else waiter(count);
  });
  child.once('exit', (code) => {
    failure = new Error(`the link clients exited with ${code}`);
    for (const reject of failed.splice(0)) reject(failure);
  });
  return {
    next: () =>
      new Promise<number>((resolve, reject) => {
        const ready = counts.shift();
        if (ready !== undefined) return resolve(ready);
        if (failure !== undefined) return reject(failure);
        waiting.push(resolve);
        failed.push(reject);
      }),
  };
}

/**
 * Phase 2's client process: opens a tenth of the links, then on a line from stdin the rest (50 at a time),
 * saying after each step how many were welcomed; closes them all when stdin closes.
 */
async function linkClients(): Promise<void> {
  const url = `${(argument('--url') ?? '').replace(/^http/, 'ws')}/v1/nodes/self/link`;
  const tokens = JSON.parse(readFileSync(argument('--tokens') ?? '', 'utf8')) as string[];
  const sockets: WebSocket[] = [];
  let welcomed = 0;
  const open = (token: string) =>
    new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      sockets.push(socket);
      socket.once('open', () =>
        socket.send(JSON.stringify({ type: 'hello', protocol: 1, version: 'bench', shapes: [] })),
      );
      socket.on('message', (data) => {
        if ((JSON.parse(data.toString()) as { type: string }).type === 'welcome') {
          welcomed += 1;
          resolve();
        }
      });
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused: ${response.statusCode}`)),
      );
    });
  const openAll = async (batch: string[]) => {
    for (let at = 0; at < batch.length; at += 50) await Promise.all(batch.slice(at, at + 50).map(open));
    process.stdout.write(`welcomed ${welcomed}\n`);
  };
  const warm = Math.ceil(tokens.length / 10);
  const lines = createInterface({ input: process.stdin });
  let closed = false;
  const ended = new Promise<void>((resolve) =>
    lines.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  const more = Promise.race([new Promise<void>((resolve) => lines.once('line', () => resolve())), ended]);
  await openAll(tokens.slice(0, warm));
  await more;
  if (!closed) await openAll(tokens.slice(warm));
  await ended;
  for (const socket of sockets) socket.terminate();
}

function runPhase(phase: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TSX, THIS_FILE, '--phase', phase, ...args], {
      stdio: 'inherit',
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const phase = argument('--phase');
if (phase === 'relay' || phase === 'links') {
  await (phase === 'relay' ? relayPhase() : linksPhase());
  // Everything was closed; an engine's lingering handle must not keep the benchmark waiting.
  process.exit(0);
} else if (phase === 'link-clients') await linkClients();
else {
  const relay = await runPhase('relay');
  const links = await runPhase('links');
  process.exitCode = relay === 0 && links === 0 ? 0 : 1;
}
