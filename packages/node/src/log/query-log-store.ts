import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * One query as this node recorded it: the row a node sends in a relayed log answer and in a log batch
 * (`NodeLogRow` of docs/node-link-protocol.md), so that it travels as stored. Rows the cloud held while the
 * node was offline have the same form, with the PoP that answered them.
 */
export interface RecordedQuery {
  ts: string;
  row_id: string;
  pop: string;
  device_id: string;
  device_name: string;
  client_ip: string;
  transport: 'doh' | 'doh3' | 'dot' | 'doq' | 'do53';
  qname: string;
  qtype: number;
  status: 'allowed' | 'blocked' | 'rewritten' | 'error';
  reason_list_id: number | null;
  reason_list_name: string;
  reason_rule: string;
  operator_code: '' | 'legal_order' | 'abuse' | 'csam';
  rcode: number;
  dnssec_validated: boolean;
  cache_hit: boolean;
  latency_us: number;
  answer_ips: string[];
}

/** A recorded query before the store gives it its position. */
export type QueryToRecord = Omit<RecordedQuery, 'ts' | 'row_id'>;

/** Options of a {@link QueryLogStore}. */
export interface QueryLogStoreOptions {
  /** Most rows kept; the oldest go first (default 100,000). */
  maxRows?: number;
  /** A JSON-lines file the rows are appended to and read back from on open; memory only when unset. */
  file?: string;
  /** The clock of `ts` (tests and benchmarks move it). */
  now?: () => number;
}

/**
 * The node's embedded query log: rows in the order they were recorded (oldest first), each with a timestamp
 * and a row id that only grows, so that `(ts, row_id)` orders them as the API's cursors expect.
 */
export class QueryLogStore {
  /** Rows oldest first; those before `first` are dropped already and go at the next compaction. */
  private rows: RecordedQuery[] = [];
  private first = 0;
  private readonly maxRows: number;
  private readonly now: () => number;
  private nextRowId: bigint;
  private lastTs = 0;
  /** `lastTs` as the rows write it, made once per millisecond rather than once per row. */
  private lastIso = '';
  private file: WriteStream | null = null;

  private constructor(options: QueryLogStoreOptions) {
    this.maxRows = options.maxRows ?? 100_000;
    this.now = options.now ?? Date.now;
    // Microseconds since the epoch at start: above every id of an earlier run, and below 2^63.
    this.nextRowId = BigInt(this.now()) * 1000n;
  }

  /** Opens a store, reading back the rows of its file when it has one. */
  static async open(options: QueryLogStoreOptions = {}): Promise<QueryLogStore> {
    const store = new QueryLogStore(options);
    if (options.file !== undefined) {
      const text = await readFile(options.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      for (const line of text.split('\n')) {
        if (line.trim() !== '') store.keep(JSON.parse(line) as RecordedQuery);
      }
      const last = store.rows.at(-1);
      if (last !== undefined && BigInt(last.row_id) >= store.nextRowId)
        store.nextRowId = BigInt(last.row_id) + 1n;
      await mkdir(dirname(options.file), { recursive: true });
      store.file = createWriteStream(options.file, { flags: 'a', mode: 0o600 });
    }
    return store;
  }

  /** Records a query now; returns the stored row (the query object itself, with its time and id). */
  append(query: QueryToRecord): RecordedQuery {
    // Timestamps never go back, so newest-first order by (ts, row_id) is the order of recording.
    const now = this.now();
    if (now > this.lastTs || this.lastIso === '') {
      this.lastTs = Math.max(this.lastTs, now);
      this.lastIso = new Date(this.lastTs).toISOString();
    }
    // The query becomes the row: copying its fields into a new object would cost more than recording it.
    const row: RecordedQuery = Object.assign(query, { ts: this.lastIso, row_id: String(this.nextRowId) });
    this.nextRowId += 1n;
    this.retain(row);
    this.file?.write(`${JSON.stringify(row)}\n`);
    return row;
  }

  /**
   * Adds rows recorded elsewhere with their own time and id (held rows the cloud answered while this node was
   * offline), in (ts, row_id) order among the others.
   */
  insertRecorded(rows: readonly RecordedQuery[]): void {
    this.compact();
    for (const row of rows) {
      this.rows.push(row);
      this.file?.write(`${JSON.stringify(row)}\n`);
    }
    this.rows.sort(
      (a, b) => Date.parse(a.ts) - Date.parse(b.ts) || (BigInt(a.row_id) < BigInt(b.row_id) ? -1 : 1),
    );
    if (this.rows.length > this.maxRows) this.rows.splice(0, this.rows.length - this.maxRows);
  }

  /** How many rows are kept. */
  get size(): number {
    return this.rows.length - this.first;
  }

  /** The rows newest first. */
  *newestFirst(): Generator<RecordedQuery> {
    for (let index = this.rows.length - 1; index >= this.first; index -= 1)
      yield this.rows[index] as RecordedQuery;
  }

  /** Flushes and closes the file, if any. */
  async close(): Promise<void> {
    const file = this.file;
    this.file = null;
    if (file === null) return;
    file.end();
    await once(file, 'close');
  }

  /** Keeps a row read back from the file. */
  private keep(row: RecordedQuery): void {
    const ts = Date.parse(row.ts);
    if (ts > this.lastTs) {
      this.lastTs = ts;
      this.lastIso = '';
    }
    this.retain(row);
  }

  /**
   * Adds a row, dropping the oldest beyond `maxRows`. Dropped rows are only skipped until as many have
   * gathered as are kept: moving the array once per `maxRows` rows rather than on every query keeps recording a
   * query cheap when the store is full.
   */
  private retain(row: RecordedQuery): void {
    this.rows.push(row);
    if (this.rows.length - this.first > this.maxRows) this.first = this.rows.length - this.maxRows;
    if (this.first >= this.maxRows) this.compact();
  }

  private compact(): void {
    if (this.first === 0) return;
    this.rows = this.rows.slice(this.first);
    this.first = 0;
  }
}
