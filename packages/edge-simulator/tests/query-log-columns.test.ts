import { createHash } from 'node:crypto';
import { concatQueryLogColumns, queryLogColumnsOf, queryLogRowsOf } from '@svc/adapters';
import type { QueryLogRow } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { EdgeTrafficSimulation, type SimulatedProfile, servingPops } from '../src/index.js';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const NOW = new Date('2026-11-20T12:00:00.000Z');

function profile(id: string, logDomains: boolean): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'null',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: logDomains,
      log_destination: 'cloud',
      retention_days: 30,
    },
    rules: { deny: ['tiktok.com'], allow: [], rewrites: [{ pattern: 'router.home', answer: '192.168.1.1' }] },
    lists: [{ id: 1, name: 'StevenBlack unified hosts' }],
    suspended: false,
  };
}

function simulation(id: string, seed: number, logDomains = true) {
  return new EdgeTrafficSimulation(
    profile(id, logDomains),
    { queries: 3_000, days: 3, devices: 4, seed, now: NOW, batchSize: 1_000 },
    sha256,
    servingPops(),
  );
}

const nodeRow: QueryLogRow = {
  profileId: 'node01',
  ts: new Date('2026-11-20T11:59:59.123Z'),
  rowId: '18446744073709551615',
  pop: 'node',
  node: '00000000-0000-4000-8000-000000000001',
  deviceId: '',
  deviceName: '',
  clientIp: '192.0.2.7',
  transport: 'do53',
  qname: 'example.com',
  qtype: 1,
  status: 'blocked',
  reasonListId: null,
  reasonListName: '',
  reasonRule: 'example.com',
  operatorCode: '',
  rcode: 3,
  dnssecValidated: false,
  cacheHit: true,
  latencyUs: 12,
  answerIps: [],
};

describe('query-log columns', () => {
  it('gives back the rows they were built from, row ids of the whole 64-bit range included', () => {
    const rows = [...simulation('abc123', 5).batches()].flat().slice(0, 500);
    rows.push(nodeRow, { ...nodeRow, rowId: '9007199254740993', answerIps: ['192.0.2.1', '2001:db8::1'] });
    expect(queryLogRowsOf(queryLogColumnsOf(rows))).toEqual(rows);
  });

  it('are the same rows as the simulation’s row batches', () => {
    const rows = [...simulation('abc123', 9).batches()].flat();
    const columns = [...simulation('abc123', 9).columnBatches()];
    expect(columns.map((batch) => batch.length)).toEqual([1_000, 1_000, 1_000]);
    expect(columns.flatMap(queryLogRowsOf)).toEqual(rows);
  });

  it('concatenate batches of several profiles into one with the rows in order', () => {
    const batches = [
      ...simulation('abc123', 1).columnBatches(),
      ...simulation('def456', 2, false).columnBatches(),
      queryLogColumnsOf([nodeRow]),
    ];
    const merged = concatQueryLogColumns(batches);
    expect(merged.length).toBe(6_001);
    expect(queryLogRowsOf(merged)).toEqual(batches.flatMap(queryLogRowsOf));
    // Dictionaries the profiles share (their names and decisions) are kept once.
    expect(merged.qname.values.length).toBeLessThan(
      batches.reduce((sum, batch) => sum + batch.qname.values.length, 0),
    );
  });
});
