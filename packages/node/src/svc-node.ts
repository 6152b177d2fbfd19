import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CredentialStore,
  FileCredentialStore,
  HourlyTotals,
  NodeAgent,
  NodeFilter,
} from '@svc/node-agent-kit';
import { z } from 'zod';
import type { NodeConfig } from './config/node-config.schema.js';
import { DnsService, dnsSettingsOf } from './dns-service.js';
import { FilterInForce } from './filtering/query-decision.js';
import { recordedQueryOf } from './log/held-rows.js';
import { LogBatchSender } from './log/log-batch-sender.js';
import { QueryLogStore, type QueryToRecord } from './log/query-log-store.js';
import { ANSWERED_SHAPES, RelayedQueryHandler } from './log/relayed-query-handler.js';

/**
 * The software version this node reports in its enrolment and hello: its package's, read from package.json
 * (one folder above src/ and dist/ alike), so that `npm run set-version` is the one place it changes.
 */
export const SVC_NODE_VERSION: string = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))).version;

/** Options of {@link SvcNode.start}. */
export interface SvcNodeOptions {
  config: NodeConfig;
  /** Where the token and signing keys are (default: `<data_dir>/credentials.json`). */
  credentials?: CredentialStore;
  /** Called when the node finds itself revoked; it has stopped answering DNS. */
  onRevoked?: () => void;
  /** Where the node says what it does (default: nothing). */
  log?: (message: string) => void;
}

/** Where the node keeps its credentials under its data directory. */
export function credentialsFile(config: Pick<NodeConfig, 'data_dir'>): string {
  return join(config.data_dir, 'credentials.json');
}

/**
 * The self-hosted node: loads its saved token (see `svc-node enrol`), applies only profile documents whose
 * signature verified, keeps the link up, answers DNS through {@link DnsService} as the kit's decision function
 * decides, records every query in its own store, answers the API's relayed queries from it, and sends its rows
 * over the link when the profile's destination is `both`.
 */
export class SvcNode {
  private dns: DnsService | null = null;

  private constructor(
    readonly store: QueryLogStore,
    readonly agent: NodeAgent,
    readonly filter: NodeFilter,
    private readonly batches: LogBatchSender,
  ) {}

  static async start(options: SvcNodeOptions): Promise<SvcNode> {
    const { config } = options;
    const log = options.log ?? (() => undefined);
    const credentials = options.credentials ?? new FileCredentialStore(credentialsFile(config));
    if ((await credentials.load()) === null)
      throw new Error(`no saved node token in ${config.data_dir}: run \`svc-node enrol CODE\` first`);
    const settings = await dnsSettingsOf(config);
    const store = await QueryLogStore.open({
      file: join(config.data_dir, 'queries.jsonl'),
      maxRows: config.query_log.max_rows,
    });
    let node: SvcNode | undefined;
    const filter: NodeFilter = new NodeFilter({
      directory: join(config.data_dir, 'filter'),
      token: (): string => agent.nodeToken,
    });
    const totals = new HourlyTotals();
    const agent = new NodeAgent({
      baseUrl: config.api_url,
      store: credentials,
      version: SVC_NODE_VERSION,
      shapes: [...ANSWERED_SHAPES],
      handler: new RelayedQueryHandler(store),
      filter,
      totals,
      onProfile: (document) => log(`applied profile ${document.id} version ${document.version}`),
      onListsError: (error) => log(`lists not brought up to date: ${error.message}`),
      onOperatorFile: (file) => log(`applied ${file.file} version ${file.version}`),
      logger: { warn: (message, details) => log(`${message} ${JSON.stringify(details)}`) },
      onHeldLogs: (rows) => {
        const recorded = rows.map(recordedQueryOf).filter((row) => row !== null);
        store.insertRecorded(recorded);
      },
      onRevoked: () => {
        log('this node was revoked; stopping');
        void node?.stop().then(() => options.onRevoked?.());
      },
    });
    const created = new SvcNode(store, agent, filter, new LogBatchSender(agent, 1_000, log));
    node = created;
    try {
      // start() applies the current document (or, offline, the last good one) before it resolves, so DNS never
      // answers unfiltered.
      await agent.start();
      const profile = new FilterInForce(filter);
      created.dns = await DnsService.start({
        settings,
        profile: () => profile,
        record: (query) => created.record(query),
        count: (status, at) => totals.count(status, at),
        log,
      });
      const { dns, dot, doh } = created.dns.addresses;
      const listening = [
        ...dns.map((address) => `udp+tcp://${address.host}:${address.port}`),
        ...dot.map((address) => `tls://${address.host}:${address.port}`),
        ...doh,
      ];
      log(`answering DNS on ${listening.join(', ')}`);
    } catch (error) {
      await created.stop();
      throw error;
    }
    return created;
  }

  /** The DNS side (its addresses, cache and upstream counters). */
  get dnsService(): DnsService {
    if (this.dns === null) throw new Error('the node has stopped');
    return this.dns;
  }

  /**
   * Applies a configuration read again (SIGHUP): the allow-list, the upstreams and the certificate change now;
   * what needs a restart (listening addresses, the API, the data directory, the cache size) is named in the
   * returned list.
   */
  async reload(previous: NodeConfig, next: NodeConfig): Promise<string[]> {
    this.dnsService.reload(await dnsSettingsOf(next));
    const needsRestart: string[] = [];
    if (JSON.stringify(previous.listen) !== JSON.stringify(next.listen)) needsRestart.push('listen');
    if (previous.api_url !== next.api_url) needsRestart.push('api_url');
    if (previous.data_dir !== next.data_dir) needsRestart.push('data_dir');
    if (JSON.stringify(previous.cache) !== JSON.stringify(next.cache)) needsRestart.push('cache');
    return needsRestart;
  }

  async stop(): Promise<void> {
    const dns = this.dns;
    this.dns = null;
    this.batches.stop();
    await Promise.all([dns?.close(), this.agent.stop()]);
    await this.store.close();
  }

  private record(query: QueryToRecord) {
    const row = this.store.append(query);
    if (this.filter.profile?.settings.log_destination === 'both') this.batches.add(row);
    return row;
  }
}
