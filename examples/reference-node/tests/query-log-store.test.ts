import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QueryLogStore, type QueryToRecord, RelayedQueryHandler, recordedQueryOf } from '../src/index.js';

const query = (qname: string, status: QueryToRecord['status'] = 'allowed'): QueryToRecord => ({
  pop: 'node',
  device_id: '',
  device_name: '',
  client_ip: '127.0.0.1',
  transport: 'do53',
  qname,
  qtype: 1,
  status,
  reason_list_id: null,
  reason_list_name: '',
  reason_rule: status === 'blocked' ? qname : '',
  operator_code: '',
  rcode: status === 'blocked' ? 3 : 0,
  dnssec_validated: false,
  cache_hit: false,
  latency_us: 10,
  answer_ips: [],
});
const signal = new AbortController().signal;

describe(QueryLogStore.name, () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its rows in an owner-only JSON-lines file and reads them back, ids still growing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reference-node-'));
    dirs.push(dir);
    const file = join(dir, 'queries.jsonl');
    const first = await QueryLogStore.open({ file });
    const written = [first.append(query('a.test')), first.append(query('b.test'))];
    await first.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await QueryLogStore.open({ file });
    expect([...again.newestFirst()]).toEqual(written.reverse());
    const next = again.append(query('c.test'));
    expect(BigInt(next.row_id)).toBeGreaterThan(BigInt(written[0]?.row_id ?? '0'));
    await again.close();
  });

  it('takes held rows with their own time and id, in order among its own, and refuses malformed ones', async () => {
    const store = await QueryLogStore.open({ now: () => Date.parse('2026-11-23T12:00:00.000Z') });
    store.append(query('mine.test'));
    const held = [
      {
        ts: '2026-11-23T11:00:00.000Z',
        row_id: '12',
        pop: 'yul',
        transport: 'doh3',
        qname: 'held.test',
        qtype: 1,
        status: 'blocked',
        reason_list_id: 4,
        reason_list_name: 'Ads',
        rcode: 3,
      },
      {
        ts: 'yesterday',
        row_id: '13',
        transport: 'doh',
        qname: 'bad.test',
        qtype: 1,
        status: 'allowed',
        rcode: 0,
      },
    ].map(recordedQueryOf);
    expect(held[1]).toBeNull();
    store.insertRecorded(held.filter((row) => row !== null));
    expect([...store.newestFirst()].map((row) => [row.qname, row.pop, row.transport])).toEqual([
      ['mine.test', 'node', 'do53'],
      ['held.test', 'yul', 'doh3'],
    ]);
    const reasons = await new RelayedQueryHandler(store).answer('top_reasons', {}, signal);
    expect(reasons.rows).toEqual([['list', 4, 'Ads', 1]]);
  });

  it('drops its oldest rows beyond maxRows', async () => {
    const store = await QueryLogStore.open({ maxRows: 2 });
    for (const name of ['a.test', 'b.test', 'c.test']) store.append(query(name));
    expect([...store.newestFirst()].map((row) => row.qname)).toEqual(['c.test', 'b.test']);
  });

  it('keeps exactly its newest maxRows rows however many pass through, held rows included', async () => {
    const store = await QueryLogStore.open({ maxRows: 3 });
    for (let index = 0; index < 20; index += 1) {
      store.append(query(`n${index}.test`));
      expect(store.size).toBe(Math.min(index + 1, 3));
    }
    expect([...store.newestFirst()].map((row) => row.qname)).toEqual(['n19.test', 'n18.test', 'n17.test']);
    const [newest] = store.newestFirst();
    if (newest === undefined) throw new Error('no rows');
    const later = { ...newest, row_id: String(BigInt(newest.row_id) + 10n), qname: 'held.test' };
    const older = { ...newest, row_id: '1', qname: 'old-held.test' };
    store.insertRecorded([later, older]);
    expect(store.size).toBe(3);
    expect([...store.newestFirst()].map((row) => row.qname)).toEqual(['held.test', 'n19.test', 'n18.test']);
  });
});

describe(RelayedQueryHandler.name, () => {
  it('pages a tail newest first with next_after, and filters by status and exact name', async () => {
    const store = await QueryLogStore.open();
    for (const name of ['a.test', 'b.test', 'c.test']) store.append(query(name));
    store.append(query('ads.test', 'blocked'));
    const handler = new RelayedQueryHandler(store);
    const first = await handler.answer('tail', { limit: 2 }, signal);
    expect(first.log_rows?.map((row) => row.qname)).toEqual(['ads.test', 'c.test']);
    const after = first.next_after ?? null;
    expect(after).not.toBeNull();
    const second = await handler.answer('tail', { limit: 2, after }, signal);
    expect(second.log_rows?.map((row) => row.qname)).toEqual(['b.test', 'a.test']);
    expect(second.next_after).toBeNull();
    const blocked = await handler.answer('tail', { statuses: ['blocked'] }, signal);
    expect(blocked.log_rows?.map((row) => row.qname)).toEqual(['ads.test']);
    const named = await handler.answer('search', { qname: 'b.TEST.', qname_match: 'exact' }, signal);
    expect(named.log_rows?.map((row) => row.qname)).toEqual(['b.test']);
    const counts = await handler.answer('counts_by_status', {}, signal);
    expect(counts.rows).toEqual([
      ['allowed', 3],
      ['blocked', 1],
      ['rewritten', 0],
      ['error', 0],
    ]);
    await expect(handler.answer('top_owners', {}, signal)).rejects.toThrow('does not answer top_owners');
  });
});
