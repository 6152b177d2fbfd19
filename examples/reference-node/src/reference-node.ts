import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterInForce } from '@svc/node/filtering';
import { Do53Listener, type StreamLimits, StreamListener, type TlsCertificate } from '@svc/node/listeners';
import {
  ANSWERED_SHAPES,
  LogBatchSender,
  QueryLogStore,
  RelayedQueryHandler,
  recordedQueryOf,
} from '@svc/node/query-log';
import { type CredentialStore, enrolNode, HourlyTotals, NodeAgent, NodeFilter } from '@svc/node-agent-kit';
import { type BlockAnswers, DnsResolver } from './dns-resolver.js';
import { DohListener } from './doh-listener.js';
import type { UpstreamAddress } from './upstream-resolver.js';

/** The software version this node reports in its enrolment and hello. */
const REFERENCE_NODE_VERSION = '1.0.0';

/** Options of {@link ReferenceNode.start}. */
export interface ReferenceNodeOptions {
  /** The API's base address, e.g. `https://api.svc.example` (without `/v1`). */
  apiUrl: string;
  /** Where the node token and the profile signing keys are kept. */
  credentials: CredentialStore;
  /**
   * Where the compiled lists, the last verified profile document and the operator files are kept, so that a
   * restart without the API decides with the last good set (default: a temporary directory, removed on stop).
   */
  filterDirectory?: string;
  /** A one-time enrolment code, used only when `credentials` holds no token yet. */
  enrolmentCode?: string;
  /** The recursive resolver allowed names are forwarded to. */
  upstream: UpstreamAddress;
  /** Address the DNS listeners bind (default 127.0.0.1). */
  dnsHost?: string;
  /** Port of plain DNS, UDP and TCP (default 5353; 0 picks a free one). */
  dnsPort?: number;
  /** HTTP port of DoH (default 8053; 0 picks a free one). */
  dohPort?: number;
  /** DNS over TLS (RFC 7858): its port (0 picks a free one) and certificate; off when unset. */
  dot?: { port: number } & TlsCertificate;
  /** Limits of the TCP and TLS connections. */
  streamLimits?: StreamLimits;
  /** JSON-lines file of the query log; memory only when unset. */
  logFile?: string;
  /** Most query log rows kept (default 100,000). */
  maxLogRows?: number;
  blockAnswers?: BlockAnswers;
  /** How often recorded queries are sent to the API when the profile's destination is `both` (default 1 s). */
  logBatchIntervalMs?: number;
  /** How often the node's hourly totals are sent over the link (default 60 s; also after each welcome). */
  totalsIntervalMs?: number;
  /** Reconnection backoff of the link. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Called when the node finds itself revoked; it has stopped answering DNS. */
  onRevoked?: () => void;
  /** Where the node says what it does (default: nothing). */
  log?: (message: string) => void;
}

/**
 * A self-hosted node built on the node-agent-kit: enrols once (or loads its saved token), applies only
 * profile documents whose signature verified, keeps the link up, answers DNS over UDP, TCP, DoH and DoT as
 * the decision function shared with the cloud decides (the kit's NodeFilter: the profile's rules, its compiled
 * lists downloaded and verified by the kit, the operator files), records every query in its own store, answers the API's relayed log and
 * analytics queries from it, and sends its rows over the link when the profile's destination is `both`.
 */
export class ReferenceNode {
  private do53: Do53Listener | null = null;
  private doh: DohListener | null = null;
  private dot: StreamListener | null = null;

  private constructor(
    readonly store: QueryLogStore,
    readonly agent: NodeAgent,
    /** What queries are decided with: the kit's filter (profile document, compiled lists, operator files). */
    readonly filter: NodeFilter,
    /** Every query answered, by hour and status, sent over the link for the cloud's hourly totals. */
    readonly totals: HourlyTotals,
    private readonly batches: LogBatchSender,
    /** A temporary filter directory of this run, removed on stop. */
    private readonly temporaryDirectory: string | null,
  ) {}

  static async start(options: ReferenceNodeOptions): Promise<ReferenceNode> {
    const log = options.log ?? (() => undefined);
    if ((await options.credentials.load()) === null) {
      if (options.enrolmentCode === undefined) throw new Error('no saved node token: give an enrolment code');
      const enrolled = await enrolNode({
        baseUrl: options.apiUrl,
        enrolmentCode: options.enrolmentCode,
        version: REFERENCE_NODE_VERSION,
        shapes: [...ANSWERED_SHAPES],
        store: options.credentials,
      });
      log(`enrolled as node ${enrolled.nodeId} of profile ${enrolled.profileId}`);
    }
    const store = await QueryLogStore.open({
      ...(options.logFile === undefined ? {} : { file: options.logFile }),
      ...(options.maxLogRows === undefined ? {} : { maxRows: options.maxLogRows }),
    });
    const temporaryDirectory =
      options.filterDirectory === undefined ? await mkdtemp(join(tmpdir(), 'svc-reference-node-')) : null;
    let node: ReferenceNode | undefined;
    const filter: NodeFilter = new NodeFilter({
      directory: options.filterDirectory ?? (temporaryDirectory as string),
      token: (): string => agent.nodeToken,
    });
    const totals = new HourlyTotals();
    const agent = new NodeAgent({
      baseUrl: options.apiUrl,
      store: options.credentials,
      version: REFERENCE_NODE_VERSION,
      shapes: [...ANSWERED_SHAPES],
      handler: new RelayedQueryHandler(store),
      filter,
      totals,
      ...(options.totalsIntervalMs === undefined ? {} : { totalsIntervalMs: options.totalsIntervalMs }),
      onProfile: (document) => {
        const lists = filter.lists.current.map((list) => list.listId).join(', ') || 'none';
        log(`applied profile ${document.id} version ${document.version} (lists in force: ${lists})`);
      },
      onListsError: (error) => log(`lists not brought up to date: ${error.message}`),
      onOperatorFile: (file) => log(`applied ${file.file} version ${file.version}`),
      // Refused profile documents and closes that blame this node, with the reason, in this node's log.
      logger: { warn: (message, details) => log(`${message} ${JSON.stringify(details)}`) },
      // Rows the cloud answered while this node was offline join its log; the kit acknowledges them after.
      onHeldLogs: (rows) => {
        const recorded = rows.map(recordedQueryOf).filter((row) => row !== null);
        store.insertRecorded(recorded);
        log(`kept ${recorded.length} of ${rows.length} held rows`);
      },
      onRevoked: () => {
        log('this node was revoked; stopping');
        void node?.stop().then(() => options.onRevoked?.());
      },
      ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
    });
    const created = new ReferenceNode(
      store,
      agent,
      filter,
      totals,
      new LogBatchSender(agent, options.logBatchIntervalMs ?? 1_000, log),
      temporaryDirectory,
    );
    node = created;
    try {
      // start() verifies and applies the current document (or, offline, the filter's last good state) before
      // it resolves, so DNS never answers unfiltered.
      await agent.start();
      const profile = new FilterInForce(filter);
      const resolver = new DnsResolver({
        profile: () => profile,
        upstream: options.upstream,
        ...(options.blockAnswers === undefined ? {} : { blockAnswers: options.blockAnswers }),
        record: (query) => created.record(query),
        count: (status, at) => totals.count(status, at),
        onUpstreamFailure: (error) => log(`upstream failed: ${error.message}`),
      });
      const host = options.dnsHost ?? '127.0.0.1';
      const limits = options.streamLimits ?? {};
      created.do53 = await Do53Listener.listen(resolver, host, options.dnsPort ?? 5353, limits);
      created.doh = await DohListener.listen(resolver, host, options.dohPort ?? 8053);
      if (options.dot !== undefined)
        created.dot = await StreamListener.tls(resolver, host, options.dot.port, options.dot, limits);
      const dot = created.dot === null ? '' : `, tls://${host}:${created.dot.address.port}`;
      log(`answering DNS on udp+tcp://${host}:${created.do53.address.port}, ${created.doh.url}${dot}`);
    } catch (error) {
      // A refused profile or a port in use: nothing of a half-started node stays behind.
      await created.stop();
      throw error;
    }
    return created;
  }

  /** Where plain DNS is answered, over UDP and TCP. */
  get dnsAddress(): { host: string; port: number } {
    if (this.do53 === null) throw new Error('the node has stopped');
    return this.do53.address;
  }

  /** Where DNS over TLS is answered, when it is on. */
  get dotAddress(): { host: string; port: number } | null {
    return this.dot?.address ?? null;
  }

  /** Where DoH is answered. */
  get dohUrl(): string {
    if (this.doh === null) throw new Error('the node has stopped');
    return this.doh.url;
  }

  /** The version of the profile document in force. */
  get profileVersion(): number | null {
    return this.filter.profile?.version ?? null;
  }

  /**
   * Log rows the API kept in the cloud, rows of every batch it settled, and rows it refused one by one (the
   * kit's metrics: logged, never sent again).
   */
  get logBatches(): { accepted: number; settled: number; refused: number } {
    return { ...this.batches.counts, refused: this.agent.metrics.logRows.refused };
  }

  /** Sends the pending log rows now rather than at the next interval. */
  flushLogs(): Promise<void> {
    return this.batches.flush();
  }

  async stop(): Promise<void> {
    const listeners = [this.do53, this.doh, this.dot];
    this.do53 = null;
    this.doh = null;
    this.dot = null;
    this.batches.stop();
    await Promise.all([...listeners.map((listener) => listener?.close()), this.agent.stop()]);
    await this.store.close();
    if (this.temporaryDirectory !== null) await rm(this.temporaryDirectory, { recursive: true, force: true });
  }

  private record(query: Parameters<QueryLogStore['append']>[0]) {
    const row = this.store.append(query);
    if (this.filter.profile?.settings.log_destination === 'both') this.batches.add(row);
    return row;
  }
}
