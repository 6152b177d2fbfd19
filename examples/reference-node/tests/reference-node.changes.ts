import { Resolver } from 'node:dns/promises';
import { expect, it } from 'vitest';
import {
  eventually,
  NOERROR,
  NXDOMAIN,
  pastThisMillisecond,
  REFUSED,
  type ReferenceNodeFixture,
  RULES,
} from './reference-node.fixture.js';
import { answerData, dohQuery, edeOf, queryMessage, rcodeOf, udpQuery } from './support/dns-client.js';
import { ask, INSTALLED_TOOLS } from './support/dns-tools.js';
import { openStream } from './support/stream-client.js';
import { UPSTREAM_V4 } from './support/test-upstream.js';

/** Rule and block-mode changes, the log settings, hourly totals, a restart, and clients nobody here wrote (2.3, 4.6). */
export function referenceNodeChanges(fx: ReferenceNodeFixture): void {
  const { request, rowsOf, startNode, changeProfile } = fx;
  it('applies a rule changed through the API: the next query for that name changes answer', async () => {
    const before = await udpQuery(fx.node.dnsAddress, 'video.example');
    expect(answerData(before)).toEqual([`A ${UPSTREAM_V4}`]);
    await changeProfile('PUT', `/v1/profiles/${fx.profileId}/rules`, {
      ...RULES,
      deny: [...RULES.deny, 'video.example'],
    });
    const after = await udpQuery(fx.node.dnsAddress, 'video.example');
    expect(rcodeOf(after)).toBe(NXDOMAIN);
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${fx.profileId}/logs?qname=video.example`);
    expect(rowsOf(logs.json).map((row) => row.status)).toEqual(['blocked', 'allowed']);
  });

  it('answers blocked names as each block mode says: refused, null, block-page (2.3)', async () => {
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { block_mode: 'refused' } });
    expect(rcodeOf(await udpQuery(fx.node.dnsAddress, 'ads.example'))).toBe(REFUSED);
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { block_mode: 'null' } });
    expect(answerData(await udpQuery(fx.node.dnsAddress, 'ads.example', 'A'))).toEqual(['A 0.0.0.0']);
    expect(answerData(await udpQuery(fx.node.dnsAddress, 'ads.example', 'AAAA'))).toEqual(['AAAA ::']);
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { block_mode: 'block-page' } });
    const page = await dohQuery(fx.node.dohUrl, 'ads.example', 'A', 'POST');
    expect(rcodeOf(page)).toBe(NOERROR);
    expect(answerData(page)).toEqual(['A 198.51.100.53']);
  });

  it('keeps domains out of its log when log_domains is off, and sends its rows over the link only for `both`', async () => {
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { log_domains: false } });
    await udpQuery(fx.node.dnsAddress, 'private.example');
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${fx.profileId}/logs?limit=1`);
    expect(rowsOf(logs.json)[0]).toMatchObject({ qname: '', status: 'allowed' });
    await fx.node.flushLogs();
    expect(fx.node.logBatches.settled).toBe(0);
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, {
      settings: { log_domains: true, log_destination: 'both' },
    });
    await udpQuery(fx.node.dnsAddress, 'shared.example');
    await udpQuery(fx.node.dnsAddress, 'ads.example');
    // This API has no columnar store, so it acknowledges the batch without keeping it (accepted 0).
    expect(
      await eventually(
        () => fx.node.logBatches.settled,
        (rows) => rows >= 2,
      ),
    ).toBe(2);
  });

  it('counts every query it answers, logged or not, and sends the hourly totals until the API settles them (4.6 rule 1)', async () => {
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { logs_enabled: false } });
    const sum = (status: 'allowed' | 'blocked') =>
      fx.node.totals.pending().reduce((total, hour) => total + hour[status], 0);
    const [allowed, blocked] = [sum('allowed'), sum('blocked')];
    const rows = fx.node.store.size;
    await udpQuery(fx.node.dnsAddress, 'counted.example');
    await udpQuery(fx.node.dnsAddress, 'ads.example');
    expect(fx.node.store.size).toBe(rows);
    expect([sum('allowed'), sum('blocked')]).toEqual([allowed + 1, blocked + 1]);
    fx.node.agent.sendTotals();
    // This API has no columnar store: it answers `not_kept`, which settles them as well.
    expect(
      await eventually(
        () => fx.node.totals.pending().length,
        (pending) => pending === 0,
      ),
    ).toBe(0);
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, { settings: { logs_enabled: true } });
  });

  it('starts again from its saved token without an enrolment code', async () => {
    await changeProfile('PATCH', `/v1/profiles/${fx.profileId}`, {
      settings: { log_destination: 'self-hosted' },
    });
    await fx.node.stop();
    fx.node = await startNode();
    expect((await fx.credentials.load())?.nodeId).toBe(fx.nodeId);
    // The profile's block mode is block-page by now.
    expect(answerData(await udpQuery(fx.node.dnsAddress, 'video.example'))).toEqual(['A 198.51.100.53']);
    await pastThisMillisecond();
    const logs = await request('GET', `/v1/profiles/${fx.profileId}/logs?limit=1`);
    expect(logs.status, logs.text).toBe(200);
    expect(rowsOf(logs.json)[0]).toMatchObject({ qname: 'video.example', status: 'blocked' });
  });

  it("answers clients nobody here wrote: c-ares follows a rewrite's CNAME, kdig/dig see the block mode and EDE 17", async () => {
    // The profile's block mode is block-page by now.
    const resolver = new Resolver({ timeout: 3_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${fx.node.dnsAddress.port}`]);
    expect(await resolver.resolve4('alias.home')).toEqual([UPSTREAM_V4]);
    expect(await resolver.resolve4('ads.example')).toEqual(['198.51.100.53']);
    const tool = INSTALLED_TOOLS[0];
    if (tool === undefined) console.warn('kdig/dig part skipped: neither is installed');
    else {
      const blocked = await ask(tool, {
        port: fx.node.dnsAddress.port,
        name: 'pixel.ads.example',
        edns: true,
      });
      expect(blocked.answers).toMatchObject([{ type: 'A', data: '198.51.100.53' }]);
      expect(blocked.ede).toEqual({ code: 17, text: 'ads.example' });
    }
    const dot = fx.node.dotAddress;
    if (dot === null || fx.certificate === null) return;
    const client = await openStream(dot.port, fx.certificate.certificate);
    try {
      client.send(queryMessage('ads.example', 'A', 5, {}));
      const [answer] = await client.received(1);
      expect(answer === undefined ? null : edeOf(answer)).toEqual({ code: 17, text: 'ads.example' });
    } finally {
      client.close();
    }
  });
}
