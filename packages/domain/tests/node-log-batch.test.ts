import { MemoryNodeLogBatchLedger } from '@svc/adapters';
import {
  type EdgeLogWriter,
  NodeLogBatchService,
  ParentalSettings,
  type ProfileRecord,
  ProfileSettings,
  type QueryLogRow,
  SecuritySettings,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';

const now = new Date('2026-11-23T04:00:00Z');
const clock = { now: () => now };
const sender = { nodeId: '00000000-0000-4000-8000-000000000001', orgId: 'org', profileId: 'abc123' };

function profile(settings: Record<string, unknown>): ProfileRecord {
  return {
    id: 'abc123',
    orgId: 'org',
    name: 'p',
    version: 1,
    security: SecuritySettings.parse({}),
    parental: ParentalSettings.parse({}),
    settings: ProfileSettings.parse(settings),
    rules: { deny: [], allow: [], rewrites: [] },
    lists: [],
    schedules: [],
    bedtime: null,
    scheduleAssignments: [],
    allowances: [],
    suspended: false,
    pausedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
}

class RecordingWriter implements Pick<EdgeLogWriter, 'writeRows'> {
  readonly rows: QueryLogRow[] = [];
  failNext = false;
  async writeRows(rows: readonly QueryLogRow[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('columnar store down');
    }
    this.rows.push(...rows);
  }
}

const row = (overrides: Record<string, unknown> = {}) => ({
  ts: '2026-11-23T03:59:00.000Z',
  row_id: '7',
  client_ip: '192.0.2.7',
  transport: 'doq',
  qname: 'a.example.',
  qtype: 1,
  status: 'blocked',
  reason_rule: 'a.example',
  rcode: 3,
  ...overrides,
});

function setup(settings: Record<string, unknown>) {
  const ledger = new MemoryNodeLogBatchLedger();
  const writer = new RecordingWriter();
  const sut = new NodeLogBatchService({
    storage: { ledger, writer },
    findProfile: async () => profile(settings),
    clock,
  });
  return { ledger, writer, sut };
}

describe(NodeLogBatchService.name, () => {
  it('stores a both profile’s rows with the node, applying log_client_ip and log_domains', async () => {
    const { writer, sut } = setup({ log_destination: 'both', log_client_ip: false, log_domains: false });
    expect(await sut.receive(sender, 'b1', [row()])).toEqual({ accepted: 1, outcome: 'stored' });
    expect(writer.rows).toEqual([
      expect.objectContaining({
        node: sender.nodeId,
        profileId: 'abc123',
        pop: 'node',
        clientIp: '',
        qname: '',
        reasonRule: '',
        transport: 'doq',
      }),
    ]);
  });

  it('writes nothing for destinations other than both, nor when logs are off', async () => {
    for (const settings of [
      { log_destination: 'self-hosted' },
      { log_destination: 'cloud' },
      { log_destination: 'none' },
      { log_destination: 'both', logs_enabled: false },
    ]) {
      const { writer, sut } = setup(settings);
      expect(await sut.receive(sender, 'b1', [row()])).toEqual({ accepted: 0, outcome: 'not_kept' });
      expect(writer.rows).toEqual([]);
    }
  });

  it('answers duplicate for a stored batch, in progress for a fresh claim, and rewrites after a failure', async () => {
    const { ledger, writer, sut } = setup({ log_destination: 'both' });
    writer.failNext = true;
    await expect(sut.receive(sender, 'b1', [row()])).rejects.toThrow('columnar store down');
    // The failed write's claim was released: the batch is free to claim.
    expect(await ledger.claim(sender.nodeId, 'b1', 1, now, new Date(0))).toEqual({ state: 'claimed' });
    await ledger.release(sender.nodeId, 'b1');
    expect(await sut.receive(sender, 'b1', [row()])).toEqual({ accepted: 1, outcome: 'stored' });
    expect(await sut.receive(sender, 'b1', [row(), row()])).toEqual({ accepted: 1, outcome: 'duplicate' });
    expect(writer.rows).toHaveLength(1);

    await ledger.claim(sender.nodeId, 'b2', 1, now, new Date(0));
    expect(await sut.receive(sender, 'b2', [row()])).toEqual({
      accepted: 0,
      outcome: 'rejected',
      reason: 'batch_in_progress',
    });
  });

  it('refuses only the bad rows of a batch, naming each, and stores the rest (issue 35)', async () => {
    const { writer, sut } = setup({ log_destination: 'both' });
    const bad = Array.from({ length: 30 }, () => row({ status: 'maybe' }));
    const settled = await sut.receive(sender, 'b1', [row(), ...bad]);
    expect(settled).toMatchObject({ accepted: 1, outcome: 'stored' });
    expect(settled.refused).toHaveLength(30);
    expect(settled.refused?.[0]).toMatchObject({ index: 1, field: 'status' });
    const future = await sut.receive(sender, 'b2', [row({ ts: '2026-11-23T06:00:00.000Z' })]);
    expect(future).toMatchObject({
      accepted: 0,
      refused: [{ index: 0, field: 'ts', reason: expect.any(String) }],
    });
    expect(writer.rows).toHaveLength(1);
  });
});
