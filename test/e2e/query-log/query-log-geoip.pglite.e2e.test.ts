import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMaxMindCountryLookup } from '@svc/adapters';
import type { QueryLogRow } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { edgeLogWriter, insertRows } from './query-log.seed.js';
import { tinyCountryDatabase } from './tiny-mmdb.js';

const folder = mkdtempSync(join(tmpdir(), 'svc-geoip-'));
const database = join(folder, 'countries.mmdb');
writeFileSync(
  database,
  tinyCountryDatabase({
    '8.8.8.0/24': 'US',
    '94.130.0.0/16': 'DE',
    '142.250.0.0/15': 'US',
    '10.0.0.0/8': 'ZZ',
  }),
);

describe('GeoIP countries from SVC_GEOIP_DB (spec 4.6 rule 5; RUNNER.md)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let profileId: string;

  beforeAll(async () => {
    api = await startApi('pglite', { SVC_GEOIP_DB: database });
    owner = await createAccount(api);
    const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    profileId = (created.json as { id: string }).id;
    const at = api.clock.now().getTime() - 60_000;
    const answers = [
      ['8.8.8.8', '94.130.1.1'],
      ['8.8.8.8'],
      ['8.8.8.8', '10.1.2.3'],
      ['142.250.80.46', '2607:f8b0:4004::200e'],
      ['1.1.1.1'],
    ];
    const rows: QueryLogRow[] = answers.map((ips, index) => ({
      profileId,
      ts: new Date(at + index),
      rowId: String(index + 1),
      pop: 'yyz',
      node: null,
      deviceId: '',
      deviceName: '',
      clientIp: '198.51.100.7',
      transport: 'doh',
      qname: `site-${index}.example`,
      qtype: 1,
      status: 'allowed',
      reasonListId: null,
      reasonListName: '',
      reasonRule: '',
      operatorCode: '',
      rcode: 0,
      dnssecValidated: false,
      cacheHit: false,
      latencyUs: 900,
      answerIps: ips,
    }));
    await insertRows(await edgeLogWriter(api), rows);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads a MaxMind-format database with the maxmind library; empty when unknown', async () => {
    const lookup = await openMaxMindCountryLookup(database);
    expect(lookup.countryOf('8.8.4.4')).toBe('');
    expect(lookup.countryOf('8.8.8.8')).toBe('US');
    expect(lookup.countryOf('94.130.200.1')).toBe('DE');
    expect(lookup.countryOf('2001:4860::8888')).toBe('');
    await expect(openMaxMindCountryLookup(join(folder, 'missing.mmdb'))).rejects.toThrow(/SVC_GEOIP_DB/);
  });

  it('the deployment facts carry the credit the GeoLite2 licence asks for', async () => {
    const meta = await send(`${api.url}/v1/meta`);
    expect((meta.json as { geoip_attribution: string }).geoip_attribution).toMatch(
      /GeoLite2 data created by MaxMind/,
    );
  });

  it('destinations carry the country of public addresses only, and the owner', async () => {
    const now = api.clock.now().getTime();
    const answer = await send(
      `${api.url}/v1/profiles/${profileId}/analytics/destinations?from=${now - 3_600_000}&to=${now}`,
      { headers: owner.auth },
    );
    expect(answer.status).toBe(200);
    expect((answer.json as { rows: unknown[][] }).rows).toEqual([
      ['8.8.8.8', 3, 'US', 'google'],
      ['1.1.1.1', 1, '', 'cloudflare'],
      ['10.1.2.3', 1, '', ''],
      ['142.250.80.46', 1, 'US', 'google'],
      ['2607:f8b0:4004::200e', 1, '', 'google'],
      ['94.130.1.1', 1, 'DE', ''],
    ]);
  });
});
