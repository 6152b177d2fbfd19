import { describe, expect, it } from 'vitest';
import {
  EdgeDocumentHead,
  EdgeProfileDocument,
  EdgeTombstone,
  edgeProfileDocument,
  edgeTombstone,
  NodeProfileDocument,
  nodeProfileDocument,
  type ProfileRecord,
} from '../src/index.js';

const profile: ProfileRecord = {
  id: 'k3x9q2',
  orgId: 'org-1',
  name: 'Home',
  version: 4,
  security: {
    rebinding: true,
    idn_homograph: false,
    typosquat: false,
    nrd: false,
    dga: false,
    cryptojacking: false,
    threat_intel: true,
    csam: true,
  },
  parental: { categories: ['gambling'], services: [], safe_search: true, youtube_restricted: false },
  settings: {
    block_mode: 'nxdomain',
    logs_enabled: true,
    log_client_ip: true,
    log_domains: true,
    log_destination: 'cloud',
    retention_days: 30,
    cname_uncloak: true,
    cache_boost_ttl: 0,
    ecs: 'off',
    node_queue_hours: 0,
    log_region: 'ca',
    time_zone: 'Europe/Berlin',
  },
  rules: { deny: ['ads.example'], allow: [], rewrites: [] },
  lists: [7, 3],
  schedules: [{ name: 'bedtime', windows: [{ days: ['sun'], start: '21:00', end: '07:00' }] }],
  bedtime: null,
  scheduleAssignments: [],
  allowances: [],
  suspended: false,
  pausedUntil: null,
  createdAt: new Date('2026-11-01T00:00:00.000Z'),
  updatedAt: new Date('2026-11-02T00:00:00.000Z'),
};

/** The fields both documents start with, in the order they are written (documents are signed as bytes). */
const CORE_KEYS = [
  'kind',
  'id',
  'version',
  'suspended',
  'filtering',
  'paused_until',
  'logging',
  'security',
  'parental',
  'settings',
  'ecs',
  'rules',
  'schedules',
  'bedtime',
  'schedule_assignments',
  'allowances',
  'devices',
];

describe('edge profile documents (spec 6.3)', () => {
  it('writes the edge document in its schema, fields in their wire order', () => {
    const document = edgeProfileDocument(profile, ['203.0.113.9']);
    expect(EdgeProfileDocument.parse(document)).toEqual(document);
    expect(Object.keys(document)).toEqual([...CORE_KEYS, 'lists', 'updated_at', 'linked_ips']);
    expect(JSON.stringify(document.ecs)).toBe(
      '{"mode":"off","operator_cap":{"v4":32,"v6":128},"source_prefix":{"v4":0,"v6":0}}',
    );
    expect(document).toMatchObject({ lists: [7, 3], linked_ips: ['203.0.113.9'], logging: true });
  });

  it('carries the schedules and the time zone, so edges evaluate them with their own clock (issue 38)', () => {
    const document = edgeProfileDocument(profile, []);
    expect(document.settings.time_zone).toBe('Europe/Berlin');
    expect(document.schedules).toEqual([
      { name: 'bedtime', windows: [{ days: ['sun'], start: '21:00', end: '07:00' }] },
    ]);
  });

  it('reads a document written before schedules and time zones existed as UTC without schedules', () => {
    const { schedules, ...older } = edgeProfileDocument(profile, []);
    const { time_zone, ...olderSettings } = older.settings;
    const read = EdgeProfileDocument.parse({ ...older, settings: olderSettings });
    expect(read.schedules).toEqual([]);
    expect(read.settings.time_zone).toBe('UTC');
    expect([schedules.length, time_zone]).toEqual([1, 'Europe/Berlin']);
  });

  it('says a suspended profile neither filters nor logs', () => {
    const document = edgeProfileDocument({ ...profile, suspended: true }, []);
    expect(document).toMatchObject({ suspended: true, filtering: false, logging: false });
  });

  it('writes the tombstone in its schema, and readers tell the two apart by their head', () => {
    const tombstone = edgeTombstone('k3x9q2', 5, new Date('2026-11-03T00:00:00.000Z'));
    expect(EdgeTombstone.parse(tombstone)).toEqual(tombstone);
    expect(JSON.stringify(tombstone)).toBe(
      '{"kind":"tombstone","id":"k3x9q2","version":5,"deleted_at":"2026-11-03T00:00:00.000Z"}',
    );
    expect(EdgeDocumentHead.parse(tombstone)).toEqual({ kind: 'tombstone', id: 'k3x9q2', version: 5 });
    expect(EdgeDocumentHead.parse(edgeProfileDocument(profile, []))).toEqual({
      kind: 'profile',
      id: 'k3x9q2',
      version: 4,
    });
    expect(EdgeDocumentHead.safeParse({ kind: 'profile', id: 'k3x9q2' }).success).toBe(false);
    expect(EdgeDocumentHead.safeParse({ kind: 'erased', id: 'k3x9q2', version: 1 }).success).toBe(false);
  });

  it('starts the node document with the same fields as the edge document', () => {
    const unsigned = { sign: () => null, keys: () => [] };
    const document = nodeProfileDocument(
      profile,
      { url: 'https://api.svc.example/v1/nodes/self/lists', artifacts: [] },
      1_700_000_000_000,
      (data) => `sha256(${data.length})`,
      unsigned,
    );
    expect(NodeProfileDocument.parse(document)).toEqual(document);
    expect(Object.keys(document)).toEqual([
      ...CORE_KEYS,
      'lists',
      'lists_url',
      'lists_sha256',
      'updated_at',
      'sequence',
    ]);
    const edge = edgeProfileDocument(profile, []);
    for (const key of CORE_KEYS)
      expect(document[key as keyof typeof document]).toEqual(edge[key as keyof typeof edge]);
    expect(document.lists.ids).toEqual([3, 7]);
  });
});
