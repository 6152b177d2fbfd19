import { expect, it } from 'vitest';
import {
  NOERROR,
  NXDOMAIN,
  pastThisMillisecond,
  type ReferenceNodeFixture,
} from './reference-node.fixture.js';
import { answerData, dohQuery, rcodeOf, udpQuery } from './support/dns-client.js';
import { UPSTREAM_V4 } from './support/test-upstream.js';

/** Enrolment, answers over UDP and DoH, and the queries the API shows through the link (2.3, 2.4, 2.11, 4.6). */
export function referenceNodeAnswers(fx: ReferenceNodeFixture): void {
  const { request, rowsOf } = fx;
  it('enrols, keeps the token and applies the verified profile before answering', async () => {
    const saved = await fx.credentials.load();
    expect(saved?.nodeToken).toMatch(/^svcnode_/);
    expect(saved?.profileId).toBe(fx.profileId);
    expect(saved?.profileKeys.length).toBeGreaterThan(0);
    const profile = await request('GET', `/v1/profiles/${fx.profileId}`);
    expect(fx.node.profileVersion).toBe((profile.json as { version: number }).version);
    const nodes = await request('GET', `/v1/profiles/${fx.profileId}/nodes`);
    const listed = (nodes.json as { nodes?: unknown[]; data?: unknown[] }) ?? {};
    expect(JSON.stringify(listed)).toContain('"connected":true');
  });

  it('answers over UDP: denied per block mode, allowed through the upstream, rewrites from the rule (2.3, 2.4)', async () => {
    const blocked = await udpQuery(fx.node.dnsAddress, 'ads.example');
    expect(rcodeOf(blocked)).toBe(NXDOMAIN);
    expect(blocked.answers).toEqual([]);
    const under = await udpQuery(fx.node.dnsAddress, 'pixel.ads.example');
    expect(rcodeOf(under)).toBe(NXDOMAIN);
    const exactOnly = await udpQuery(fx.node.dnsAddress, 'www.tracker.example');
    expect(rcodeOf(exactOnly)).toBe(NOERROR);
    const allowed = await udpQuery(fx.node.dnsAddress, 'ok.ads.example');
    expect(rcodeOf(allowed)).toBe(NOERROR);
    expect(answerData(allowed)).toEqual([`A ${UPSTREAM_V4}`]);
    expect(fx.upstream.asked).toContain('ok.ads.example');
    expect(fx.upstream.asked).not.toContain('ads.example');
    const rewrittenA = await udpQuery(fx.node.dnsAddress, 'nas.router.home', 'A');
    expect(answerData(rewrittenA)).toEqual(['A 192.168.1.1']);
    const rewrittenAaaa = await udpQuery(fx.node.dnsAddress, 'router.home', 'AAAA');
    expect(answerData(rewrittenAaaa)).toEqual(['AAAA fd00::1']);
  });

  it('answers DoH GET and POST (RFC 8484) with the same rules', async () => {
    const blocked = await dohQuery(fx.node.dohUrl, 'ads.example', 'A', 'GET');
    expect(rcodeOf(blocked)).toBe(NXDOMAIN);
    const allowed = await dohQuery(fx.node.dohUrl, 'news.example', 'A', 'POST');
    expect(answerData(allowed)).toEqual([`A ${UPSTREAM_V4}`]);
    const rewritten = await dohQuery(fx.node.dohUrl, 'router.home', 'A', 'POST');
    expect(answerData(rewritten)).toEqual(['A 192.168.1.1']);
    const refused = await fetch(`${fx.node.dohUrl}?dns=not*base64`);
    expect(refused.status).toBe(400);
    const wrongType = await fetch(fx.node.dohUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
  });

  it('shows the queries through GET /v1/profiles/{id}/logs, relayed over the link (2.11, 4.6)', async () => {
    await udpQuery(fx.node.dnsAddress, 'logged.example');
    await dohQuery(fx.node.dohUrl, 'ads.example', 'AAAA', 'GET');
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${fx.profileId}/logs?limit=2`);
    expect(logs.status, logs.text).toBe(200);
    expect(logs.json).toMatchObject({ shape: 'tail', source: 'node', node: fx.nodeId, partial: false });
    const [newest, before] = rowsOf(logs.json);
    expect(newest).toMatchObject({
      source: 'node',
      pop: 'node',
      node: fx.nodeId,
      profile_id: fx.profileId,
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
      `/v1/profiles/${fx.profileId}/logs?limit=2&cursor=${encodeURIComponent(cursor ?? '')}`,
    );
    expect(rowsOf(next.json)[0]).toMatchObject({
      status: 'rewritten',
      qname: 'router.home',
      reason: '=router.home',
      reason_code: 'rewrite',
    });

    const rewrites = await request('GET', `/v1/profiles/${fx.profileId}/logs?status=rewritten&limit=100`);
    expect(rowsOf(rewrites.json).every((row) => row.status === 'rewritten')).toBe(true);
    expect(rowsOf(rewrites.json).length).toBeGreaterThanOrEqual(3);
    const search = await request('GET', `/v1/profiles/${fx.profileId}/logs?mode=search&qname=router`);
    expect(rowsOf(search.json).map((row) => row.qname)).toContain('nas.router.home');

    const blocked = await request('GET', `/v1/profiles/${fx.profileId}/analytics/top_blocked`);
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.json).toMatchObject({ source: 'node', node: fx.nodeId });
    expect(rowsOf(blocked.json)[0]).toEqual({ qname: 'ads.example', count: 3 });
    const reasons = await request('GET', `/v1/profiles/${fx.profileId}/analytics/top_reasons`);
    expect(rowsOf(reasons.json)).toContainEqual({
      reason_code: 'rewrite',
      list_id: null,
      reason: '=router.home',
      count: 3,
    });
  });
}
