import { Resolver } from 'node:dns/promises';
import { createTestApp, type TestApp } from '@svc/http-server';
import { MemoryCredentialStore } from '@svc/node-agent-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceNode } from '../src/index.js';
import { type ApiOwner, createOwner } from './support/api-account.js';
import { answerData, dohQuery, edeOf, queryMessage, rcodeOf, udpQuery } from './support/dns-client.js';
import { ask, INSTALLED_TOOLS } from './support/dns-tools.js';
import { opensslMissing, type SelfSignedCertificate, selfSignedCertificate } from './support/self-signed.js';
import { openStream } from './support/stream-client.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

const NOERROR = 0;
const NXDOMAIN = 3;
const REFUSED = 5;
const RULES = {
  deny: ['ads.example', '=tracker.example'],
  allow: ['ok.ads.example'],
  rewrites: [
    { pattern: 'router.home', answer: '192.168.1.1' },
    { pattern: 'router.home', answer: 'fd00::1' },
    { pattern: 'alias.home', answer: 'target.example' },
  ],
};

/** Polls `read` until `accept` holds (5 s at most), for what the node does in the background. */
async function eventually<T>(read: () => T | Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the clock has left the current millisecond. A log query's `to` defaults to now and excludes it
 * (spec 4.6), so a row the node recorded in the very millisecond the API reads its clock is not yet before it.
 */
async function pastThisMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
}

/**
 * examples/reference-node against a real API server (issue 8, spec 2.3, 2.4, 2.11, 4.6, 4.13): it enrols,
 * applies the signed profile, answers real DNS queries over UDP and DoH (GET and POST) with the profile's
 * rules and block mode, forwards allowed names to an upstream on loopback, records every query, answers the
 * API's relayed log and analytics queries from its own store, follows rule changes pushed over the link, and
 * starts again from its saved token.
 */
describe('reference node end to end (4.13)', () => {
  let api: TestApp;
  let owner: ApiOwner;
  let upstream: TestUpstream;
  let credentials: MemoryCredentialStore;
  let node: ReferenceNode;
  let profileId: string;
  let nodeId: string;
  let certificate: SelfSignedCertificate | null = null;

  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { ...owner.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, json: text === '' ? null : (JSON.parse(text) as unknown) };
  };
  /** The rows of a relayed result as objects keyed by column name. */
  const rowsOf = (json: unknown): Record<string, unknown>[] => {
    const result = json as { columns: { name: string }[]; rows: unknown[][] };
    return result.rows.map((row) =>
      Object.fromEntries(result.columns.map((column, index) => [column.name, row[index]])),
    );
  };
  const startNode = (enrolmentCode?: string) =>
    ReferenceNode.start({
      apiUrl: api.url,
      credentials,
      ...(enrolmentCode === undefined ? {} : { enrolmentCode }),
      upstream,
      dnsPort: 0,
      dohPort: 0,
      ...(certificate === null ? {} : { dot: { port: 0, ...certificate } }),
      logBatchIntervalMs: 50,
      backoff: { initialMs: 20, maxMs: 200 },
    });
  /** Writes the profile through the API and waits until the node applied the version it made. */
  const changeProfile = async (method: 'PUT' | 'PATCH', path: string, body: unknown) => {
    const answer = await request(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    const profile = await request('GET', `/v1/profiles/${profileId}`);
    const version = (profile.json as { version: number }).version;
    expect(
      await eventually(
        () => node.profileVersion,
        (applied) => applied === version,
      ),
    ).toBe(version);
  };

  beforeAll(async () => {
    api = await createTestApp();
    owner = await createOwner(api.url, (address) =>
      api.mailer.to(address).map((message) => message.text ?? ''),
    );
    upstream = await startTestUpstream();
    if (opensslMissing === undefined) certificate = selfSignedCertificate();
    else console.warn(`the node's DoT is not tested: ${opensslMissing}`);
    const profile = await request('POST', '/v1/profiles', {
      name: 'home',
      settings: { log_destination: 'self-hosted', block_mode: 'nxdomain' },
    });
    expect(profile.status, profile.text).toBe(201);
    profileId = (profile.json as { id: string }).id;
    expect((await request('PUT', `/v1/profiles/${profileId}/rules`, RULES)).status).toBe(200);
    const created = await request('POST', `/v1/profiles/${profileId}/nodes`, { name: 'reference' });
    expect(created.status, created.text).toBe(201);
    const body = created.json as { enrolment_code: string; node?: { id: string }; id?: string };
    credentials = new MemoryCredentialStore();
    node = await startNode(body.enrolment_code);
    nodeId = (await credentials.load())?.nodeId ?? '';
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await upstream?.close();
    await api?.close();
  });

  it('enrols, keeps the token and applies the verified profile before answering', async () => {
    const saved = await credentials.load();
    expect(saved?.nodeToken).toMatch(/^svcnode_/);
    expect(saved?.profileId).toBe(profileId);
    expect(saved?.profileKeys.length).toBeGreaterThan(0);
    const profile = await request('GET', `/v1/profiles/${profileId}`);
    expect(node.profileVersion).toBe((profile.json as { version: number }).version);
    const nodes = await request('GET', `/v1/profiles/${profileId}/nodes`);
    const listed = (nodes.json as { nodes?: unknown[]; data?: unknown[] }) ?? {};
    expect(JSON.stringify(listed)).toContain('"connected":true');
  });

  it('answers over UDP: denied per block mode, allowed through the upstream, rewrites from the rule (2.3, 2.4)', async () => {
    const blocked = await udpQuery(node.dnsAddress, 'ads.example');
    expect(rcodeOf(blocked)).toBe(NXDOMAIN);
    expect(blocked.answers).toEqual([]);
    const under = await udpQuery(node.dnsAddress, 'pixel.ads.example');
    expect(rcodeOf(under)).toBe(NXDOMAIN);
    const exactOnly = await udpQuery(node.dnsAddress, 'www.tracker.example');
    expect(rcodeOf(exactOnly)).toBe(NOERROR);
    const allowed = await udpQuery(node.dnsAddress, 'ok.ads.example');
    expect(rcodeOf(allowed)).toBe(NOERROR);
    expect(answerData(allowed)).toEqual([`A ${UPSTREAM_V4}`]);
    expect(upstream.asked).toContain('ok.ads.example');
    expect(upstream.asked).not.toContain('ads.example');
    const rewrittenA = await udpQuery(node.dnsAddress, 'nas.router.home', 'A');
    expect(answerData(rewrittenA)).toEqual(['A 192.168.1.1']);
    const rewrittenAaaa = await udpQuery(node.dnsAddress, 'router.home', 'AAAA');
    expect(answerData(rewrittenAaaa)).toEqual(['AAAA fd00::1']);
  });

  it('answers DoH GET and POST (RFC 8484) with the same rules', async () => {
    const blocked = await dohQuery(node.dohUrl, 'ads.example', 'A', 'GET');
    expect(rcodeOf(blocked)).toBe(NXDOMAIN);
    const allowed = await dohQuery(node.dohUrl, 'news.example', 'A', 'POST');
    expect(answerData(allowed)).toEqual([`A ${UPSTREAM_V4}`]);
    const rewritten = await dohQuery(node.dohUrl, 'router.home', 'A', 'POST');
    expect(answerData(rewritten)).toEqual(['A 192.168.1.1']);
    const refused = await fetch(`${node.dohUrl}?dns=not*base64`);
    expect(refused.status).toBe(400);
    const wrongType = await fetch(node.dohUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
  });

  it('shows the queries through GET /v1/profiles/{id}/logs, relayed over the link (2.11, 4.6)', async () => {
    await udpQuery(node.dnsAddress, 'logged.example');
    await dohQuery(node.dohUrl, 'ads.example', 'AAAA', 'GET');
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${profileId}/logs?limit=2`);
    expect(logs.status, logs.text).toBe(200);
    expect(logs.json).toMatchObject({ shape: 'tail', source: 'node', node: nodeId, partial: false });
    const [newest, before] = rowsOf(logs.json);
    expect(newest).toMatchObject({
      source: 'node',
      pop: 'node',
      node: nodeId,
      profile_id: profileId,
      transport: 'doh',
      qname: 'ads.example',
      qtype: 28,
      status: 'blocked',
      reason_rule: 'ads.example',
      rcode: NXDOMAIN,
      reason: 'ads.example',
      reason_code: 'rule',
      ede_code: 17,
    });
    expect(before).toMatchObject({
      transport: 'do53',
      qname: 'logged.example',
      status: 'allowed',
      client_ip: '127.0.0.1',
      answer_ips: [UPSTREAM_V4],
      reason_code: 'none',
    });
    const cursor = (logs.json as { next_cursor: string | null }).next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const next = await request(
      'GET',
      `/v1/profiles/${profileId}/logs?limit=2&cursor=${encodeURIComponent(cursor ?? '')}`,
    );
    expect(rowsOf(next.json)[0]).toMatchObject({
      status: 'rewritten',
      qname: 'router.home',
      reason: '=router.home',
      reason_code: 'rewrite',
    });

    const rewrites = await request('GET', `/v1/profiles/${profileId}/logs?status=rewritten&limit=100`);
    expect(rowsOf(rewrites.json).every((row) => row.status === 'rewritten')).toBe(true);
    expect(rowsOf(rewrites.json).length).toBeGreaterThanOrEqual(3);
    const search = await request('GET', `/v1/profiles/${profileId}/logs?mode=search&qname=router`);
    expect(rowsOf(search.json).map((row) => row.qname)).toContain('nas.router.home');

    const blocked = await request('GET', `/v1/profiles/${profileId}/analytics/top_blocked`);
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.json).toMatchObject({ source: 'node', node: nodeId });
    expect(rowsOf(blocked.json)[0]).toEqual({ qname: 'ads.example', count: 3 });
    const reasons = await request('GET', `/v1/profiles/${profileId}/analytics/top_reasons`);
    expect(rowsOf(reasons.json)).toContainEqual({
      reason_code: 'rewrite',
      list_id: null,
      reason: '=router.home',
      count: 3,
    });
  });

  it('applies a rule changed through the API: the next query for that name changes answer', async () => {
    const before = await udpQuery(node.dnsAddress, 'video.example');
    expect(answerData(before)).toEqual([`A ${UPSTREAM_V4}`]);
    await changeProfile('PUT', `/v1/profiles/${profileId}/rules`, {
      ...RULES,
      deny: [...RULES.deny, 'video.example'],
    });
    const after = await udpQuery(node.dnsAddress, 'video.example');
    expect(rcodeOf(after)).toBe(NXDOMAIN);
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${profileId}/logs?qname=video.example`);
    expect(rowsOf(logs.json).map((row) => row.status)).toEqual(['blocked', 'allowed']);
  });

  it('answers blocked names as each block mode says: refused, null, block-page (2.3)', async () => {
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { block_mode: 'refused' } });
    expect(rcodeOf(await udpQuery(node.dnsAddress, 'ads.example'))).toBe(REFUSED);
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { block_mode: 'null' } });
    expect(answerData(await udpQuery(node.dnsAddress, 'ads.example', 'A'))).toEqual(['A 0.0.0.0']);
    expect(answerData(await udpQuery(node.dnsAddress, 'ads.example', 'AAAA'))).toEqual(['AAAA ::']);
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { block_mode: 'block-page' } });
    const page = await dohQuery(node.dohUrl, 'ads.example', 'A', 'POST');
    expect(rcodeOf(page)).toBe(NOERROR);
    expect(answerData(page)).toEqual(['A 198.51.100.53']);
  });

  it('keeps domains out of its log when log_domains is off, and sends its rows over the link only for `both`', async () => {
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { log_domains: false } });
    await udpQuery(node.dnsAddress, 'private.example');
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${profileId}/logs?limit=1`);
    expect(rowsOf(logs.json)[0]).toMatchObject({ qname: '', status: 'allowed' });
    await node.flushLogs();
    expect(node.logBatches.settled).toBe(0);
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, {
      settings: { log_domains: true, log_destination: 'both' },
    });
    await udpQuery(node.dnsAddress, 'shared.example');
    await udpQuery(node.dnsAddress, 'ads.example');
    // This API has no columnar store, so it acknowledges the batch without keeping it (accepted 0).
    expect(
      await eventually(
        () => node.logBatches.settled,
        (rows) => rows >= 2,
      ),
    ).toBe(2);
  });

  it('counts every query it answers, logged or not, and sends the hourly totals until the API settles them (4.6 rule 1)', async () => {
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { logs_enabled: false } });
    const sum = (status: 'allowed' | 'blocked') =>
      node.totals.pending().reduce((total, hour) => total + hour[status], 0);
    const [allowed, blocked] = [sum('allowed'), sum('blocked')];
    const rows = node.store.size;
    await udpQuery(node.dnsAddress, 'counted.example');
    await udpQuery(node.dnsAddress, 'ads.example');
    expect(node.store.size).toBe(rows);
    expect([sum('allowed'), sum('blocked')]).toEqual([allowed + 1, blocked + 1]);
    node.agent.sendTotals();
    // This API has no columnar store: it answers `not_kept`, which settles them as well.
    expect(
      await eventually(
        () => node.totals.pending().length,
        (pending) => pending === 0,
      ),
    ).toBe(0);
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, { settings: { logs_enabled: true } });
  });

  it('starts again from its saved token without an enrolment code', async () => {
    await changeProfile('PATCH', `/v1/profiles/${profileId}`, {
      settings: { log_destination: 'self-hosted' },
    });
    await node.stop();
    node = await startNode();
    expect((await credentials.load())?.nodeId).toBe(nodeId);
    // The profile's block mode is block-page by now.
    expect(answerData(await udpQuery(node.dnsAddress, 'video.example'))).toEqual(['A 198.51.100.53']);
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${profileId}/logs?limit=1`);
    expect(logs.status, logs.text).toBe(200);
    expect(rowsOf(logs.json)[0]).toMatchObject({ qname: 'video.example', status: 'blocked' });
  });

  it("answers clients nobody here wrote: c-ares follows a rewrite's CNAME, kdig/dig see the block mode and EDE 17", async () => {
    // The profile's block mode is block-page by now.
    const resolver = new Resolver({ timeout: 3_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${node.dnsAddress.port}`]);
    expect(await resolver.resolve4('alias.home')).toEqual([UPSTREAM_V4]);
    expect(await resolver.resolve4('ads.example')).toEqual(['198.51.100.53']);
    const tool = INSTALLED_TOOLS[0];
    if (tool === undefined) console.warn('kdig/dig part skipped: neither is installed');
    else {
      const blocked = await ask(tool, { port: node.dnsAddress.port, name: 'pixel.ads.example', edns: true });
      expect(blocked.answers).toMatchObject([{ type: 'A', data: '198.51.100.53' }]);
      expect(blocked.ede).toEqual({ code: 17, text: 'ads.example' });
    }
    const dot = node.dotAddress;
    if (dot === null || certificate === null) return;
    const client = await openStream(dot.port, certificate.certificate);
    try {
      client.send(queryMessage('ads.example', 'A', 5, {}));
      const [answer] = await client.received(1);
      expect(answer === undefined ? null : edeOf(answer)).toEqual({ code: 17, text: 'ads.example' });
    } finally {
      client.close();
    }
  });
});
