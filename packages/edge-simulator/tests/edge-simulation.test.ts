import { createHash } from 'node:crypto';
import { deviceIdOf, QUERY_STATUSES, type QueryLogRow, sanitiseDeviceName } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import {
  EdgeTrafficSimulation,
  SeededRandom,
  type SimulatedProfile,
  type SimulationOptions,
  servingPops,
  WeightedSampler,
} from '../src/index.js';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const NOW = new Date('2026-11-20T12:34:56.789Z');
const DAY = 86_400_000;

function profileWith(
  overrides: Partial<SimulatedProfile['settings']> = {},
  suspended = false,
): SimulatedProfile {
  return {
    id: 'sim001',
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: 'cloud',
      retention_days: 30,
      ...overrides,
    },
    rules: {
      deny: ['tiktok.com', '*.casino.example'],
      allow: ['app-measurement.com'],
      rewrites: [
        { pattern: 'router.home', answer: '192.168.1.1' },
        { pattern: 'router.home', answer: 'fd00::1' },
      ],
    },
    lists: [
      { id: 1, name: 'StevenBlack unified hosts' },
      { id: 4, name: 'Another list' },
    ],
    suspended,
  };
}

function simulate(
  profile: SimulatedProfile,
  options: Partial<SimulationOptions> = {},
): { simulation: EdgeTrafficSimulation; rows: QueryLogRow[] } {
  const simulation = new EdgeTrafficSimulation(
    profile,
    { queries: 40_000, days: 7, devices: 5, seed: 7, now: NOW, batchSize: 7_000, ...options },
    sha256,
    servingPops(),
  );
  const rows = [...simulation.batches()].flat();
  return { simulation, rows };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

describe('SeededRandom and WeightedSampler', () => {
  it('repeat their sequence for a seed and differ between seeds', () => {
    const draw = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from({ length: 8 }, () => random.next32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(2 ** 40 + 5)).not.toEqual(draw(5));
  });

  it('draw indexes in proportion to their weights', () => {
    const sampler = new WeightedSampler([1, 2, 7]);
    const random = new SeededRandom(1);
    const counts = [0, 0, 0];
    for (let index = 0; index < 100_000; index += 1) {
      const drawn = sampler.sample(random);
      counts[drawn] = (counts[drawn] ?? 0) + 1;
    }
    expect(counts[0]).toBeGreaterThan(9_000);
    expect(counts[0]).toBeLessThan(11_000);
    expect(counts[2]).toBeGreaterThan(69_000);
    expect(counts[2]).toBeLessThan(71_000);
    expect(sampler.share(1)).toBeCloseTo(0.2);
  });
});

describe(EdgeTrafficSimulation.name, () => {
  it('gives identical rows for the same seed and other rows for another', () => {
    const first = simulate(profileWith(), { queries: 5_000 });
    const second = simulate(profileWith(), { queries: 5_000, batchSize: 999 });
    expect(second.rows).toEqual(first.rows);
    expect(second.simulation.hourlyTotals()).toEqual(first.simulation.hourlyTotals());
    const other = simulate(profileWith(), { queries: 5_000, seed: 8 });
    expect(other.rows.map((row) => row.qname)).not.toEqual(first.rows.map((row) => row.qname));
    expect(other.rows[0]?.rowId).not.toBe(first.rows[0]?.rowId); // Any safe integer seeds a run (`svc simulate` draws 48-bit seeds).
    expect(simulate(profileWith(), { queries: 10, seed: 2 ** 47 + 3 }).rows).toHaveLength(10);
    expect(simulate(profileWith(), { queries: 10, seed: Number.MAX_SAFE_INTEGER }).rows).toHaveLength(10);
  });

  it('writes N rows with unique row ids inside the last D days, with a daily rhythm', () => {
    const { rows } = simulate(profileWith());
    expect(rows).toHaveLength(40_000);
    expect(new Set(rows.map((row) => row.rowId)).size).toBe(40_000);
    for (const row of rows) {
      expect(row.rowId).toMatch(/^[1-9]\d*$/);
      expect(Number(row.rowId)).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    }
    const times = rows.map((row) => row.ts.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - 7 * DAY);
    expect(Math.max(...times)).toBeLessThan(NOW.getTime());
    // Local (UTC-5) 3 am is quieter than 7 pm.
    const byUtcHour = countBy(rows, (row) => String(row.ts.getUTCHours()));
    expect(byUtcHour.get('8') ?? 0).toBeLessThan((byUtcHour.get('0') ?? 0) / 3);
  });

  it('draws names by a Zipf law over a pool of real-looking names', () => {
    const { rows } = simulate(profileWith());
    const counts = [...countBy(rows, (row) => row.qname).values()].sort((a, b) => b - a);
    const top = counts[0] ?? 0;
    expect(top / rows.length).toBeGreaterThan(0.05);
    expect(top / rows.length).toBeLessThan(0.3);
    expect(counts[9] ?? 0).toBeLessThan(top / 4);
    expect(counts.length).toBeGreaterThan(500);
    const top100 = counts.slice(0, 100).reduce((sum, count) => sum + count, 0);
    expect(top100 / rows.length).toBeGreaterThan(0.5);
    for (const row of rows) expect(row.qname).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it('decides by operator block, allow, rewrite, deny rule and list, with rcodes of the block mode', () => {
    const { rows } = simulate(profileWith(), { queries: 80_000 });
    const statuses = countBy(rows, (row) => row.status);
    expect((statuses.get('allowed') ?? 0) / rows.length).toBeGreaterThan(0.75);
    expect(statuses.get('blocked')).toBeGreaterThan(0);
    expect(statuses.get('rewritten')).toBeGreaterThan(0);
    expect((statuses.get('error') ?? 0) / rows.length).toBeGreaterThan(0.003);
    expect((statuses.get('error') ?? 0) / rows.length).toBeLessThan(0.015);

    const listBlocks = rows.filter((row) => row.status === 'blocked' && row.reasonListId !== null);
    expect(new Set(listBlocks.map((row) => row.reasonListId))).toEqual(new Set([1, 4]));
    for (const row of listBlocks) {
      expect(row.reasonListName).toBe(row.reasonListId === 1 ? 'StevenBlack unified hosts' : 'Another list');
      expect(row.reasonRule).toBe('');
    }
    const ruleBlocks = rows.filter(
      (row) => row.status === 'blocked' && row.reasonRule !== '' && !row.operatorCode,
    );
    expect(new Set(ruleBlocks.map((row) => row.reasonRule))).toEqual(
      new Set(['tiktok.com', '*.casino.example']),
    );
    const operatorBlocks = rows.filter((row) => row.operatorCode !== '');
    expect(new Set(operatorBlocks.map((row) => row.operatorCode))).toEqual(
      new Set(['legal_order', 'abuse', 'csam']),
    );
    for (const row of operatorBlocks) {
      expect(row.status).toBe('blocked');
      expect(row.reasonRule).not.toBe('');
    }
    // The allow rule wins over the list that would block the name.
    expect(
      rows.filter((row) => row.qname === 'app-measurement.com').every((row) => row.status !== 'blocked'),
    ).toBe(true);
    const rewrites = rows.filter((row) => row.status === 'rewritten');
    for (const row of rewrites) {
      expect(row.qname).toBe('router.home');
      expect(row.reasonRule).toBe('router.home');
      expect(row.answerIps).toEqual(row.qtype === 1 ? ['192.168.1.1'] : row.qtype === 28 ? ['fd00::1'] : []);
    }
    for (const row of rows) {
      const expected =
        row.status === 'error' ? 2 : row.status === 'blocked' ? 3 : row.answerIps.length > 0 ? 0 : row.rcode;
      expect(row.rcode).toBe(expected);
      if (row.status !== 'allowed') expect(row.dnssecValidated).toBe(false);
      if (row.status === 'blocked') expect(row.answerIps).toEqual([]);
    }
  });

  it('answers blocks as the block mode says, operator blocks NXDOMAIN whatever the mode (spec 3, 4.10)', () => {
    const nulled = simulate(profileWith({ block_mode: 'null' }), { queries: 10_000 }).rows;
    const blockedA = nulled.filter((row) => row.status === 'blocked' && row.qtype === 1);
    expect(blockedA.length).toBeGreaterThan(0);
    for (const row of blockedA)
      expect(row).toMatchObject(
        row.operatorCode === '' ? { rcode: 0, answerIps: ['0.0.0.0'] } : { rcode: 3, answerIps: [] },
      );
    const refused = simulate(profileWith({ block_mode: 'refused' }), { queries: 40_000 }).rows;
    const blocked = refused.filter((row) => row.status === 'blocked');
    expect(blocked.some((row) => row.operatorCode !== '')).toBe(true);
    for (const row of blocked) expect(row.rcode).toBe(row.operatorCode === '' ? 5 : 3);
  });

  it('answers allowed A and AAAA queries with addresses, some of big platforms and CDNs', () => {
    const { rows } = simulate(profileWith());
    const allowed = rows.filter((row) => row.status === 'allowed' && row.rcode === 0);
    const a = allowed.filter((row) => row.qtype === 1);
    const aaaa = allowed.filter((row) => row.qtype === 28);
    expect(a.length).toBeGreaterThan(allowed.length / 3);
    for (const row of a) for (const ip of row.answerIps) expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const row of aaaa) for (const ip of row.answerIps) expect(ip).toContain(':');
    const addresses = new Set(a.flatMap((row) => row.answerIps));
    for (const prefix of ['142.250.', '17.', '157.240.', '104.16.', '151.101.', '23.']) {
      expect([...addresses].some((ip) => ip.startsWith(prefix))).toBe(true);
    }
    expect(new Set(rows.map((row) => row.qtype))).toEqual(new Set([1, 28, 65, 5, 16, 12, 33, 15]));
    expect(rows.some((row) => row.cacheHit)).toBe(true);
    expect(rows.some((row) => row.dnssecValidated)).toBe(true);
    for (const row of rows) expect(row.latencyUs).toBeGreaterThan(0);
  });

  it('spreads queries over devices with encrypted transports, PoPs of the catalogue and their sightings', () => {
    const { simulation, rows } = simulate(profileWith(), { devices: 6 });
    const devices = simulation.devices;
    expect(devices).toHaveLength(6);
    for (const device of devices) {
      expect(device.name).toBe(sanitiseDeviceName(device.rawName));
      expect(device.id).toBe(deviceIdOf(device.name, sha256));
      expect(['doh', 'doh3', 'dot', 'doq']).toContain(device.transport);
    }
    expect(new Set(devices.map((device) => device.transport))).toEqual(
      new Set(['doh', 'doh3', 'dot', 'doq']),
    );
    const perDevice = countBy(rows, (row) => row.deviceId);
    expect([...perDevice.keys()].sort()).toEqual(devices.map((device) => device.id).sort());
    for (const row of rows) {
      const device = devices.find((candidate) => candidate.id === row.deviceId);
      expect(row).toMatchObject({ deviceName: device?.name, transport: device?.transport, node: null });
      expect(servingPops()).toContain(row.pop);
    }
    const sightings = simulation.sightings();
    expect(sightings).toHaveLength(12);
    for (const device of devices) {
      const times = rows.filter((row) => row.deviceId === device.id).map((row) => row.ts.getTime());
      const seen = sightings
        .filter((sighting) => sighting.name === device.rawName)
        .map((s) => s.seenAt.getTime());
      expect(seen).toEqual([Math.min(...times), Math.max(...times)]);
    }
  });

  it('counts hourly totals and device counts that add up to the rows', () => {
    const { simulation, rows } = simulate(profileWith());
    const totals = simulation.hourlyTotals();
    const expected = countBy(rows, (row) => `${Math.floor(row.ts.getTime() / 3_600_000)} ${row.status}`);
    expect(totals).toHaveLength(expected.size);
    for (const total of totals) {
      expect(total.hour.getTime() % 3_600_000).toBe(0);
      expect(total.count).toBe(expected.get(`${total.hour.getTime() / 3_600_000} ${total.status}`));
    }
    const deviceCounts = simulation.deviceCounts();
    const queries = countBy(rows, (row) => `${Math.floor(row.ts.getTime() / 3_600_000)} ${row.deviceId}`);
    const blocked = countBy(
      rows.filter((row) => row.status === 'blocked'),
      (row) => `${Math.floor(row.ts.getTime() / 3_600_000)} ${row.deviceId}`,
    );
    expect(deviceCounts).toHaveLength(queries.size);
    for (const count of deviceCounts) {
      const key = `${count.hour.getTime() / 3_600_000} ${count.deviceId}`;
      expect(count.queries).toBe(queries.get(key));
      expect(count.blocked).toBe(blocked.get(key) ?? 0);
    }
  });

  it('gives the same counts column by column, in the order of the count tables keys', () => {
    const { simulation } = simulate(profileWith(), { queries: 3_000, devices: 7 });
    const columns = simulation.countColumns();
    expect(columns.profileId).toBe('sim001');
    const totals = Array.from(columns.totals.hour, (hour, row) => ({
      profileId: columns.profileId,
      hour: new Date(hour * 1000),
      status: QUERY_STATUSES[columns.totals.status[row] as number] as string,
      count: columns.totals.count[row],
    }));
    const byTime = (a: { hour: Date }, b: { hour: Date }) => a.hour.getTime() - b.hour.getTime();
    const byStatus = (a: { hour: Date; status: string }, b: { hour: Date; status: string }) =>
      byTime(a, b) || (a.status < b.status ? -1 : a.status > b.status ? 1 : 0);
    expect([...totals].sort(byStatus)).toEqual(totals);
    expect(totals).toEqual([...simulation.hourlyTotals()].sort(byStatus));
    const devices = Array.from(columns.devices.hour, (hour, row) => ({
      profileId: columns.profileId,
      deviceId: columns.deviceIds[columns.devices.device[row] as number] as string,
      hour: new Date(hour * 1000),
      queries: columns.devices.queries[row],
      blocked: columns.devices.blocked[row],
    }));
    const byDevice = (a: { hour: Date; deviceId: string }, b: { hour: Date; deviceId: string }) =>
      byTime(a, b) || (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0);
    expect([...devices].sort(byDevice)).toEqual(devices);
    expect(devices).toEqual([...simulation.deviceCounts()].sort(byDevice));
  });

  it('yields the rows of a batch in time order, then row id, the same rows whatever the batch size', () => {
    const simulation = new EdgeTrafficSimulation(
      profileWith(),
      { queries: 20_000, days: 7, devices: 5, seed: 9, now: NOW, batchSize: 4_000 },
      sha256,
      servingPops(),
    );
    for (const batch of simulation.columnBatches()) {
      const keys = Array.from(batch.ts, (ts, row) => [
        ts,
        (batch.rowId[2 * row + 1] as number) * 2 ** 32 + (batch.rowId[2 * row] as number),
      ]);
      expect(
        [...keys].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)),
      ).toEqual(keys);
    }
  });

  it('keeps no rows for destinations none and self-hosted, nor with logs off, while counting the same totals', () => {
    const cloud = simulate(profileWith(), { queries: 3_000 });
    for (const settings of [
      { log_destination: 'none' as const },
      { log_destination: 'self-hosted' as const },
      { logs_enabled: false },
    ]) {
      const other = simulate(profileWith(settings), { queries: 3_000 });
      expect(other.simulation.keepsRows).toBe(false);
      expect(other.rows).toEqual([]);
      expect(other.simulation.hourlyTotals()).toEqual(cloud.simulation.hourlyTotals());
      expect(other.simulation.deviceCounts()).toEqual(cloud.simulation.deviceCounts());
    }
    expect(simulate(profileWith({ log_destination: 'both' }), { queries: 10 }).rows).toHaveLength(10);
  });

  it('blanks client addresses and names as the log settings say, keeping operator texts', () => {
    const { rows } = simulate(profileWith({ log_client_ip: false, log_domains: false }), { queries: 20_000 });
    for (const row of rows) {
      expect(row.clientIp).toBe('');
      expect(row.qname).toBe('');
      if (row.operatorCode === '') expect(row.reasonRule).toBe('');
    }
    expect(rows.some((row) => row.operatorCode !== '' && row.reasonRule !== '')).toBe(true);
  });

  it('carries no device over Do53 when the household has none', () => {
    const { simulation, rows } = simulate(profileWith(), { queries: 1_000, devices: 0 });
    expect(simulation.sightings()).toEqual([]);
    expect(simulation.deviceCounts()).toEqual([]);
    for (const row of rows) expect(row).toMatchObject({ deviceId: '', deviceName: '', transport: 'do53' });
  });

  it('refuses out-of-range options', () => {
    for (const options of [
      { queries: -1 },
      { days: 0 },
      { days: 401 },
      { devices: 1_001 },
      { queries: 1.5 },
    ]) {
      expect(() => simulate(profileWith(), options)).toThrow(RangeError);
    }
  });
});
