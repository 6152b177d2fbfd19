import { Resolver } from 'node:dns/promises';
import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { opensslMissing, selfSignedCertificate } from '@svc/testing/self-signed-certificate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsResolver, Do53Listener, DohListener, EDE, QueryLogStore, StreamListener } from '../src/index.js';
import { dohWithHeaders, rcodeOf } from './support/dns-client.js';
import { ask, toolMissing } from './support/dns-tools.js';
import { type TestFilter, testFilter } from './support/node-filter.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

// 2026-11-27 is a Friday; Berlin is at +01:00. The bedtime runs Friday 22:00 to Saturday 07:00 there.
const EVENING = Date.parse('2026-11-27T20:30:00Z');
const NIGHT = Date.parse('2026-11-27T21:30:00Z');
const MORNING = Date.parse('2026-11-28T06:00:00Z');
const PHONE_PAUSE_END = Date.parse('2026-11-27T21:00:00Z');
const NXDOMAIN = 3;

/**
 * A node enforces issue 38's schedules, pauses and device overrides from its last document and its own clock,
 * with no API to ask (none runs in this test): clients nobody here wrote (c-ares over Do53, kdig over DoT
 * naming a device by its server name) and DoH naming a device by its path ask while the clock moves.
 */
describe('reference node: schedules, pauses and devices without the API', () => {
  let upstream: TestUpstream;
  let filter: TestFilter;
  let do53: Do53Listener;
  let doh: DohListener;
  let dot: StreamListener | null = null;
  let store: QueryLogStore;
  let clock = EVENING;

  const resolver = () => {
    const client = new Resolver({ timeout: 3_000, tries: 1 });
    client.setServers([`127.0.0.1:${do53.address.port}`]);
    return client;
  };

  beforeAll(async () => {
    upstream = await startTestUpstream();
    store = await QueryLogStore.open();
    filter = await testFilter(
      profileDocument({
        settings: { time_zone: 'Europe/Berlin' },
        rules: { deny: ['ads.example'] },
        policy: {
          schedules: [{ name: 'night', windows: [{ days: ['fri'], start: '22:00', end: '07:00' }] }],
          bedtime: 'night',
          devices: {
            tablet: { rules: { deny: ['video.example'], allow: [] }, bedtime: null },
            phone: { paused_until: new Date(PHONE_PAUSE_END).toISOString() },
          },
        },
      }),
    );
    const dns = new DnsResolver({
      profile: () => filter.profile,
      upstream,
      upstreamTimeoutMs: 2_000,
      record: (query) => store.append(query),
      now: () => clock,
    });
    const limits = { idleTimeoutMs: 300, maxInFlight: 10 };
    do53 = await Do53Listener.listen(dns, '127.0.0.1', 0, limits);
    doh = await DohListener.listen(dns, '127.0.0.1', 0);
    if (opensslMissing === undefined)
      dot = await StreamListener.tls(dns, '127.0.0.1', 0, selfSignedCertificate(), limits);
  });
  afterAll(async () => {
    await Promise.all([do53?.close(), doh?.close(), dot?.close(), upstream?.close(), filter?.close()]);
  });

  it('opens and closes the bedtime by its clock in the profile’s zone, with no new document', async () => {
    clock = EVENING;
    expect(await resolver().resolve4('news.example')).toEqual([UPSTREAM_V4]);
    clock = NIGHT;
    await expect(resolver().resolve4('news.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect([...store.newestFirst()][0]).toMatchObject({ qname: 'news.example', status: 'blocked' });
    clock = MORNING;
    expect(await resolver().resolve4('news.example')).toEqual([UPSTREAM_V4]);
  });

  it('pauses the device named by the DoH path alone, until its pause ends', async () => {
    clock = EVENING;
    const phone = await dohWithHeaders(`${doh.url}/phone`, 'ads.example');
    expect(rcodeOf(phone.packet)).toBe(0);
    expect([...store.newestFirst()][0]).toMatchObject({
      qname: 'ads.example',
      status: 'allowed',
      device_id: 'phone',
    });
    expect(rcodeOf((await dohWithHeaders(doh.url, 'ads.example')).packet)).toBe(NXDOMAIN);
    clock = PHONE_PAUSE_END;
    expect(rcodeOf((await dohWithHeaders(`${doh.url}/phone`, 'ads.example')).packet)).toBe(NXDOMAIN);
  });

  it.skipIf(opensslMissing !== undefined || toolMissing('kdig') !== undefined)(
    'applies the override of the device kdig names by its DoT server name: its deny rule, and no bedtime',
    async () => {
      const port = (dot as StreamListener).address.port;
      clock = NIGHT;
      const tablet = 'tablet-k3x9q2.dot.svc.example';
      const night = await ask('kdig', { port, name: 'news.example', tlsSni: tablet, edns: true });
      expect(night.status).toBe('NOERROR');
      const video = await ask('kdig', { port, name: 'video.example', tlsSni: tablet, edns: true });
      expect(video.status).toBe('NXDOMAIN');
      expect(video.ede).toEqual({ code: EDE.filtered, text: 'video.example' });
      expect([...store.newestFirst()][0]).toMatchObject({ qname: 'video.example', device_id: 'tablet' });
      const profile = await ask('kdig', {
        port,
        name: 'news.example',
        tlsSni: 'k3x9q2.dot.svc.example',
        edns: true,
      });
      expect(profile.status).toBe('NXDOMAIN');
      expect(profile.ede).toEqual({ code: EDE.filtered, text: 'schedule:night' });
      clock = EVENING;
      expect(
        (await ask('kdig', { port, name: 'video.example', tlsSni: 'k3x9q2.dot.svc.example' })).status,
      ).toBe('NOERROR');
    },
  );
});
