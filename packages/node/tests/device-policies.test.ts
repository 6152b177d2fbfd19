import { nodeProfileDocument as profileDocument } from '@svc/testing/node-profile-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDns, startDns } from './support/dns-service.fixture.js';
import { ask, toolMissing } from './support/dns-tools.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

// 2026-11-27 is a Friday; Berlin is at +01:00. The bedtime runs Friday 22:00 to Saturday 07:00 there.
const EVENING = Date.parse('2026-11-27T20:30:00Z');
const NIGHT = Date.parse('2026-11-27T21:30:00Z');
const EDE_FILTERED = 17;

/**
 * svc-node applies issue 38's device overrides from its document and its own clock: kdig naming the device by
 * its DoT server name (`<device>-<profile id>`) or its DoH path (`/dns-query/<device>`) gets the device's
 * decision, while plain Do53 (which cannot name a device) gets the profile's; the log row names the device.
 */
describe.skipIf(toolMissing('kdig') !== undefined)('svc-node device policies (issue 38)', () => {
  let upstream: TestUpstream;
  let dns: RunningDns;
  let clock = EVENING;

  beforeAll(async () => {
    upstream = await startTestUpstream();
    const document = profileDocument({
      settings: { time_zone: 'Europe/Berlin' },
      rules: { deny: ['ads.example'] },
      policy: {
        schedules: [{ name: 'night', windows: [{ days: ['fri'], start: '22:00', end: '07:00' }] }],
        bedtime: 'night',
        devices: { tablet: { rules: { deny: ['video.example'], allow: [] }, bedtime: null } },
      },
    });
    dns = await startDns([upstream], {}, { document, now: () => clock });
  });
  afterAll(async () => {
    await dns?.close();
    await upstream?.close();
  });

  const newestRow = () => [...dns.store.newestFirst()][0];

  it('over DoT, the device named by the server name gets its deny rule and no bedtime; the profile name does not', async () => {
    const port = dns.port.dot;
    clock = NIGHT;
    const tablet = 'tablet-k3x9q2.dot.svc.example';
    const night = await ask('kdig', { port, name: 'news.example', tlsSni: tablet, edns: true });
    expect(night.status).toBe('NOERROR');
    expect(night.answers.map((record) => record.data)).toEqual([UPSTREAM_V4]);
    expect(newestRow()).toMatchObject({ qname: 'news.example', status: 'allowed', device_id: 'tablet' });
    const video = await ask('kdig', { port, name: 'video.example', tlsSni: tablet, edns: true });
    expect(video.status).toBe('NXDOMAIN');
    expect(video.ede).toEqual({ code: EDE_FILTERED, text: 'video.example' });
    expect(newestRow()).toMatchObject({ qname: 'video.example', status: 'blocked', device_id: 'tablet' });
    const profile = await ask('kdig', {
      port,
      name: 'news.example',
      tlsSni: 'k3x9q2.dot.svc.example',
      edns: true,
    });
    expect(profile.status).toBe('NXDOMAIN');
    expect(profile.ede).toEqual({ code: EDE_FILTERED, text: 'schedule:night' });
    expect(newestRow()).toMatchObject({ qname: 'news.example', device_id: '' });
  });

  it('over DoH, the device named by the path gets its decision; `/dns-query` gets the profile’s', async () => {
    const asked = { port: dns.port.doh, https: 'post', tlsCa: dns.certificate.caFile, edns: true } as const;
    clock = EVENING;
    const video = await ask('kdig', { ...asked, name: 'video.example', httpsPath: '/dns-query/tablet' });
    expect(video.status).toBe('NXDOMAIN');
    expect(video.ede).toEqual({ code: EDE_FILTERED, text: 'video.example' });
    expect(newestRow()).toMatchObject({ qname: 'video.example', transport: 'doh', device_id: 'tablet' });
    const plain = await ask('kdig', { ...asked, name: 'video.example' });
    expect(plain.status).toBe('NOERROR');
    clock = NIGHT;
    const night = await ask('kdig', { ...asked, name: 'news.example', httpsPath: '/dns-query/tablet' });
    expect(night.status).toBe('NOERROR');
  });

  it('over plain Do53, which names no device, the profile decides: its bedtime, not the device’s deny rule', async () => {
    const port = dns.port.dns;
    clock = EVENING;
    expect((await ask('kdig', { port, name: 'video.example', edns: true })).status).toBe('NOERROR');
    expect(newestRow()).toMatchObject({ qname: 'video.example', transport: 'do53', device_id: '' });
    clock = NIGHT;
    const night = await ask('kdig', { port, name: 'news.example', edns: true });
    expect(night.status).toBe('NXDOMAIN');
    expect(night.ede).toEqual({ code: EDE_FILTERED, text: 'schedule:night' });
  });
});
