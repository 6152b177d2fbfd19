import { DeviceSightings, EdgeLogWriter } from '@svc/domain';
import { queryRecords } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import { failureOf, type SdkScenario } from '../../support/sdk-scenario.js';
import { recentLogRows } from '../exports/recent-log-rows.js';
import { totalsOf } from '../query-log/query-log.seed.js';

const HOUR = 3_600_000;

/**
 * The owner's profile through an API token: rules, lists, setup, linked IPs and DDNS, devices, list reports,
 * query logs and analytics on the embedded columnar store, and self-hosted nodes (spec 4.2–4.6, 4.13).
 */
export function describeProfiles(scenario: SdkScenario): void {
  describe('profiles, rules, lists and setup (spec 4.2, 4.13)', () => {
    it('creates, lists, reads, updates with If-Match and deletes profiles', async () => {
      const scripted = scenario.get('scripted');
      const created = await scripted.profiles.create({
        name: 'Home',
        settings: { log_destination: 'cloud' },
      });
      expect(created).toMatchObject({ name: 'Home', suspended: false });
      expect((await scripted.profiles.list().toArray()).map((each) => each.id)).toEqual([created.id]);
      expect(await scripted.profiles.get(created.id)).toEqual(created);
      const renamed = await scripted.profiles.update(
        created.id,
        { name: 'Home network' },
        { ifMatch: created.version },
      );
      expect(renamed).toMatchObject({ name: 'Home network', version: created.version + 1 });
      scenario.keep('profile', renamed);
      const spare = await scripted.profiles.create({ name: 'Spare' });
      await scripted.profiles.delete(spare.id, { ifMatch: spare.version });
      expect((await failureOf(scripted.profiles.get(spare.id))).code).toBe('not_found');
    });

    it('replaces and reads schedules, with the ETag the answer carried', async () => {
      const scripted = scenario.get('scripted');
      const { id } = scenario.get('profile');
      const bedtime = {
        name: 'bedtime',
        windows: [{ days: ['fri' as const], start: '22:00', end: '07:00' }],
      };
      const { etag } = await scripted.profiles.schedules.get(id).withResponse();
      const replaced = await scripted.profiles.schedules.replace(id, [bedtime], { ifMatch: etag });
      expect(replaced).toEqual([bedtime]);
      expect(await scripted.profiles.schedules.get(id)).toEqual([bedtime]);
      const assignments = [
        {
          target: { kind: 'service' as const, id: 'youtube' },
          schedule: 'bedtime',
          mode: 'lifted_during' as const,
        },
      ];
      await scripted.profiles.schedules.replace(id, [bedtime], { bedtime: 'bedtime', assignments });
      expect(await scripted.profiles.schedules.getAll(id)).toEqual({
        schedules: [bedtime],
        bedtime: 'bedtime',
        assignments,
      });
    });

    it('creates, lists and ends a timed allowance', async () => {
      const scripted = scenario.get('scripted');
      const { id } = scenario.get('profile');
      const allowance = await scripted.profiles.allowances.create(id, {
        domain: 'homework.example',
        minutes: 30,
      });
      expect(allowance).toMatchObject({ domain: 'homework.example', service: null });
      expect(await scripted.profiles.allowances.list(id)).toEqual([allowance]);
      await scripted.profiles.allowances.delete(id, allowance.id);
      expect(await scripted.profiles.allowances.list(id)).toEqual([]);
    });

    it('replaces and reads rules and lists', async () => {
      const scripted = scenario.get('scripted');
      const { id } = scenario.get('profile');
      const listId = scenario.get('listId');
      const rules = await scripted.profiles.rules.replace(id, { deny: ['Ads.Example.com'] });
      expect(rules).toEqual({ deny: ['ads.example.com'], allow: [], rewrites: [] });
      expect(await scripted.profiles.rules.get(id)).toEqual(rules);
      expect(await scripted.profiles.lists.replace(id, [listId])).toEqual([listId]);
      expect(await scripted.profiles.lists.get(id)).toEqual([listId]);
    });

    it('pauses a profile’s filtering and resumes it', async () => {
      const scripted = scenario.get('scripted');
      const paused = await scripted.profiles.create({ name: 'Pause' });
      const { paused_until } = await scripted.profiles.pause(paused.id, 15, { ifMatch: paused.version });
      expect(await scripted.profiles.get(paused.id)).toMatchObject({ paused_until, version: 2 });
      await scripted.profiles.resume(paused.id);
      await scripted.profiles.resume(paused.id);
      expect(await scripted.profiles.get(paused.id)).toMatchObject({ paused_until: null, version: 3 });
      expect((await failureOf(scripted.profiles.pause(paused.id, 1441))).code).toBe('validation_failed');
      await scripted.profiles.delete(paused.id);
    });

    it('reads the setup values and the Apple configuration profile', async () => {
      const scripted = scenario.get('scripted');
      const profile = scenario.get('profile');
      const setup = await scripted.profiles.setup(profile.id);
      expect(setup).toMatchObject({ profile_id: profile.id, doh: profile.endpoints.doh });
      const plist = await scripted.profiles.appleConfiguration(profile.id);
      expect(plist).toContain('<plist');
      expect(plist).toContain(profile.endpoints.doh);
    });
  });

  describe('linked IPs and DDNS (spec 4.4)', () => {
    it('links an IP and a DDNS slot, updates it through its URL, rotates the URL and unlinks both', async () => {
      const { linkedIps } = scenario.get('scripted').profiles;
      const { id } = scenario.get('profile');
      const linked = await linkedIps.create(id, { ip: '203.0.113.41' });
      expect(linked).toMatchObject({ ip: '203.0.113.41', ddns: false });
      const slot = await linkedIps.create(id, { ddns: true });
      expect(slot).toMatchObject({ ip: null, ddns: true });
      expect(await linkedIps.get(id, slot.id)).toEqual(slot);
      expect((await linkedIps.list(id).toArray()).map((each) => each.id).sort()).toEqual(
        [linked.id, slot.id].sort(),
      );
      const { update_url } = await linkedIps.ddnsUrl(id, slot.id);
      expect(update_url).toMatch(/\/v1\/ddns\/[A-Za-z0-9_-]+$/);
      const router = scenario.client({ forwardedFor: '198.51.100.77' });
      expect(await router.ddns.update(update_url)).toEqual({ ip: '198.51.100.77', changed: true });
      const rotated = await linkedIps.rotateDdns(id, slot.id);
      expect(rotated.update_url).not.toBe(update_url);
      await linkedIps.delete(id, slot.id);
      await linkedIps.delete(id, linked.id);
      expect(await linkedIps.list(id).toArray()).toEqual([]);
    });
  });

  describe('devices and list reports (spec 4.3, 4.5)', () => {
    it('lists, names, reads and forgets a device a resolver saw', async () => {
      const { devices } = scenario.get('scripted').profiles;
      const { id } = scenario.get('profile');
      const sightings = await scenario.api.container.getAsync<DeviceSightings>(DeviceSightings);
      await sightings.record([
        {
          profileId: id,
          name: 'living-room-tv',
          identification: 'doh_path',
          transport: 'doh',
          seenAt: scenario.api.clock.now(),
        },
      ]);
      expect(await devices.list(id).toArray()).toEqual([
        expect.objectContaining({ id: 'living-room-tv', kind: 'other' }),
      ]);
      const named = await devices.update(id, 'living-room-tv', { display_name: 'TV', kind: 'tv' });
      expect(named).toMatchObject({ label: 'TV', kind: 'tv' });
      expect((await devices.get(id, 'living-room-tv')).display_name).toBe('TV');
      expect(await devices.policy.get(id, 'living-room-tv')).toEqual({});
      const policy = { rules: { deny: ['games.example'], allow: [] }, parental: 'off' as const };
      expect(await devices.policy.replace(id, 'living-room-tv', policy)).toEqual(policy);
      expect(await devices.policy.get(id, 'living-room-tv')).toEqual(policy);
      const paused = await devices.pause(id, 'living-room-tv', 15);
      expect(Date.parse(paused.paused_until)).toBe(scenario.api.clock.now().getTime() + 15 * 60_000);
      await devices.resume(id, 'living-room-tv');
      await devices.forget(id, 'living-room-tv');
      expect((await failureOf(devices.get(id, 'living-room-tv'))).code).toBe('not_found');
    });

    it('reports a domain a blocklist gets wrong and lists the report', async () => {
      const { listReports } = scenario.get('scripted').profiles;
      const { id } = scenario.get('profile');
      const report = await listReports.create(id, {
        domain: 'Shop.Example.com.',
        list_id: scenario.get('listId'),
        kind: 'false_positive',
      });
      expect(await listReports.list(id).toArray()).toEqual([
        expect.objectContaining({ id: report.id, domain: 'shop.example.com', status: 'open' }),
      ]);
    });
  });

  describe('query logs and analytics on embedded chdb (spec 2.11, 4.6, 6.1)', () => {
    it('queries, streams and aggregates the rows the edge wrote', async () => {
      const { logs, analytics } = scenario.get('scripted').profiles;
      const { id } = scenario.get('profile');
      const writer = await scenario.api.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
      const rows = recentLogRows(id, 12);
      await writer.writeRows(rows, 30);
      const newest = (count: number) =>
        rows
          .slice(-count)
          .reverse()
          .map((row) => row.qname);
      const from = new Date(Date.now() - 3 * HOUR);
      const to = new Date(Date.now() + 60_000);

      const tail = await logs.query(id, { from, to, limit: 5 });
      expect(queryRecords(tail).map((record) => record.qname)).toEqual(newest(5));

      const abort = new AbortController();
      let streamed: unknown[] = [];
      for await (const event of logs.stream(id, { limit: 3, signal: abort.signal })) {
        if (event.type !== 'rows') continue;
        streamed = queryRecords(event.result).map((record) => record.qname);
        break;
      }
      abort.abort();
      expect(streamed).toEqual(newest(3));

      // As the edge does, the rows are counted into hourly totals too, which time-only counts read.
      await writer.writeHourlyTotals(totalsOf(rows));
      const counts = await analytics.query(id, 'counts_by_status', { from, to });
      const byStatus = Object.fromEntries(
        queryRecords(counts).map((record) => [String(record.status), Number(record.count)]),
      );
      expect(byStatus).toEqual({ allowed: 6, blocked: 6, error: 0, rewritten: 0 });
    });
  });

  describe('self-hosted nodes (spec 4.13, 5.1)', () => {
    it('creates, lists, reads and revokes nodes of the profile', async () => {
      const { nodes } = scenario.get('scripted').profiles;
      const { id } = scenario.get('profile');
      const spare = await nodes.create(id, { name: 'spare' });
      expect(spare.enrolment_code).toMatch(/^svcenrol_/);
      expect(spare.node).toMatchObject({ name: 'spare', state: 'pending' });
      expect((await nodes.list(id).toArray()).map((node) => node.id)).toEqual([spare.node.id]);
      await nodes.revoke(id, spare.node.id);
      expect((await nodes.get(id, spare.node.id)).state).toBe('revoked');
    });

    it('enrols a node, which reads itself, its profile and link, rotates its token and revokes itself', async () => {
      const { id } = scenario.get('profile');
      const created = await scenario.get('scripted').profiles.nodes.create(id, { name: 'rack' });
      const enrolled = await scenario.client().nodes.enrol({
        enrolment_code: created.enrolment_code,
        version: '1.0.0',
        shapes: ['tail'],
      });
      expect(enrolled.node).toMatchObject({ id: created.node.id, state: 'enrolled' });
      expect(enrolled.profile_pubkey.length).toBeGreaterThan(0);
      const node = scenario.client({ token: enrolled.node_token });
      expect((await node.nodes.self.get()).id).toBe(created.node.id);
      expect(await node.nodes.self.profile()).toMatchObject({ kind: 'profile', id });
      // A parental service's list is compiled from the catalogue: the manifest names it, the node downloads it.
      await scenario.get('scripted').profiles.update(id, { parental: { services: ['youtube'] } });
      const manifest = await node.nodes.self.lists();
      const youtube = manifest.artifacts.find((artifact) => artifact.list_id === 20001);
      expect(youtube).toMatchObject({ kind: 'parental', name: 'YouTube' });
      expect(await node.nodes.self.listArtifact(youtube?.sha256 ?? '')).toContain('\nyoutube.com\n');
      expect((await node.nodes.self.link()).link_url).toMatch(/^ws:\/\/.+\/v1\/nodes\/self\/link$/);
      const rotated = await node.nodes.self.rotateToken();
      expect(rotated.node_token).not.toBe(enrolled.node_token);
      const renewed = scenario.client({ token: rotated.node_token });
      await renewed.nodes.self.revoke();
      expect((await failureOf(renewed.nodes.self.get())).code).toBe('node_revoked');
    });
  });
}
