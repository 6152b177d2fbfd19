import { type CredentialStore, enrolNode, NodeAgent } from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { type BlockAnswers, DnsResolver } from './dns-resolver.js';
import { DohListener } from './doh-listener.js';
import { FilteringPolicy } from './filtering-policy.js';
import { recordedQueryOf } from './held-rows.js';
import { LogBatchSender } from './log-batch-sender.js';
import { QueryLogStore } from './query-log-store.js';
import { ANSWERED_SHAPES, RelayedQueryHandler } from './relayed-query-handler.js';
import { UdpListener } from './udp-listener.js';
import type { UpstreamAddress } from './upstream-resolver.js';

/** The software version this node reports in its enrolment and hello. */
export const REFERENCE_NODE_VERSION = '1.0.0';

/** Options of {@link ReferenceNode.start}. */
export interface ReferenceNodeOptions {
  /** The API's base address, e.g. `https://api.svc.example` (without `/v1`). */
  apiUrl: string;
  /** Where the node token and the profile signing keys are kept. */
  credentials: CredentialStore;
  /** A one-time enrolment code, used only when `credentials` holds no token yet. */
  enrolmentCode?: string;
  /** The recursive resolver allowed names are forwarded to. */
  upstream: UpstreamAddress;
  /** Address the DNS listeners bind (default 127.0.0.1). */
  dnsHost?: string;
  /** UDP port of plain DNS (default 5353; 0 picks a free one). */
  udpPort?: number;
  /** HTTP port of DoH (default 8053; 0 picks a free one). */
  dohPort?: number;
  /** JSON-lines file of the query log; memory only when unset. */
  logFile?: string;
  /** Most query log rows kept (default 100,000). */
  maxLogRows?: number;
  blockAnswers?: BlockAnswers;
  /** How often recorded queries are sent to the API when the profile's destination is `both` (default 1 s). */
  logBatchIntervalMs?: number;
  /** Reconnection backoff of the link. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Called when the node finds itself revoked; it has stopped answering DNS. */
  onRevoked?: () => void;
  /** Where the node says what it does (default: nothing). */
  log?: (message: string) => void;
}

/**
 * A self-hosted node built on the node-agent-kit: enrols once (or loads its saved token), applies only
 * profile documents whose signature verified, keeps the link up, answers DNS over UDP and DoH with the
 * profile's rules and block mode, records every query in its own store, answers the API's relayed log and
 * analytics queries from it, and sends its rows over the link when the profile's destination is `both`.
 */
export class ReferenceNode {
  private policy: FilteringPolicy | null = null;
  private udp: UdpListener | null = null;
  private doh: DohListener | null = null;

  private constructor(
    readonly store: QueryLogStore,
    readonly agent: NodeAgent,
    private readonly batches: LogBatchSender,
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
    let node: ReferenceNode | undefined;
    const agent = new NodeAgent({
      baseUrl: options.apiUrl,
      store: options.credentials,
      version: REFERENCE_NODE_VERSION,
      shapes: [...ANSWERED_SHAPES],
      handler: new RelayedQueryHandler(store),
      onProfile: (document) => {
        node?.apply(document);
        log(`applied profile ${document.id} version ${document.version}`);
      },
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
      new LogBatchSender(agent, options.logBatchIntervalMs ?? 1_000, log),
    );
    node = created;
    try {
      // start() verifies and applies the current document before it resolves, so DNS never answers unfiltered.
      await agent.start();
      const resolver = new DnsResolver({
        policy: () => created.currentPolicy(),
        upstream: options.upstream,
        ...(options.blockAnswers === undefined ? {} : { blockAnswers: options.blockAnswers }),
        record: (query) => created.record(query),
        onUpstreamFailure: (error) => log(`upstream failed: ${error.message}`),
      });
      const host = options.dnsHost ?? '127.0.0.1';
      created.udp = await UdpListener.listen(resolver, host, options.udpPort ?? 5353);
      created.doh = await DohListener.listen(resolver, host, options.dohPort ?? 8053);
      log(`answering DNS on udp://${host}:${created.udp.address.port} and ${created.doh.url}`);
    } catch (error) {
      // A refused profile or a port in use: nothing of a half-started node stays behind.
      await created.stop();
      throw error;
    }
    return created;
  }

  /** Where plain DNS is answered. */
  get udpAddress(): { host: string; port: number } {
    if (this.udp === null) throw new Error('the node has stopped');
    return this.udp.address;
  }

  /** Where DoH is answered. */
  get dohUrl(): string {
    if (this.doh === null) throw new Error('the node has stopped');
    return this.doh.url;
  }

  /** The version of the profile document in force. */
  get profileVersion(): number | null {
    return this.policy?.version ?? null;
  }

  /** Log rows the API kept in the cloud, and rows of every batch it settled. */
  get logBatches(): { accepted: number; settled: number } {
    return this.batches.counts;
  }

  /** Sends the pending log rows now rather than at the next interval. */
  flushLogs(): Promise<void> {
    return this.batches.flush();
  }

  async stop(): Promise<void> {
    const udp = this.udp;
    const doh = this.doh;
    this.udp = null;
    this.doh = null;
    this.batches.stop();
    await Promise.all([udp?.close(), doh?.close(), this.agent.stop()]);
    await this.store.close();
  }

  private apply(document: NodeProfileDocument): void {
    this.policy = FilteringPolicy.of(document);
  }

  private currentPolicy(): FilteringPolicy {
    if (this.policy === null) throw new Error('no verified profile applied yet');
    return this.policy;
  }

  private record(query: Parameters<QueryLogStore['append']>[0]) {
    const row = this.store.append(query);
    if (this.policy?.logDestination === 'both') this.batches.add(row);
    return row;
  }
}
