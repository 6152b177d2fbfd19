import { readFile } from 'node:fs/promises';
import type { NodeConfig } from './config/node-config.schema.js';
import type { ProfileInForce } from './filtering/query-decision.js';
import { ClientAccess } from './listeners/client-access.js';
import { Do53Listener } from './listeners/do53-listener.js';
import { DohListener } from './listeners/doh-listener.js';
import { type StreamLimits, StreamListener, type TlsCertificate } from './listeners/stream-listener.js';
import type { QueryToRecord, RecordedQuery } from './log/query-log-store.js';
import { AnswerCache, type CacheCounters } from './resolving/answer-cache.js';
import { type BlockAnswers, DnsResolver } from './resolving/dns-resolver.js';
import { Forwarder } from './resolving/forwarder.js';
import type { UpstreamServer } from './resolving/upstream-exchange.js';
import { type UpstreamHealth, UpstreamPool } from './resolving/upstream-pool.js';

/** What the DNS side of the node runs with: its configuration with the files it names read. */
export interface DnsSettings {
  listen: { dns: Address[]; dot: Address[]; doh: Address[] };
  tls: TlsCertificate | null;
  /** Client ranges answered (CIDR). */
  allow: readonly string[];
  cache: { maxBytes: number; maxTtlSeconds: number; staleSeconds: number };
  upstreams: UpstreamServer[];
  upstreamTimeoutMs: number;
}

interface Address {
  host: string;
  port: number;
}

/** Options of {@link DnsService.start}. */
export interface DnsServiceOptions {
  settings: DnsSettings;
  /** The profile in force: what decides queries and how they are logged. */
  profile: () => ProfileInForce;
  /** Records a query the profile's logging settings keep. */
  record: (query: QueryToRecord) => RecordedQuery;
  /** Counts every query answered, logged or not (the node's hourly totals). */
  count?: (status: RecordedQuery['status'], at: number) => void;
  streamLimits?: StreamLimits;
  blockAnswers?: BlockAnswers;
  /** Time one upstream has to answer before the next is tried (default 1,000 ms). */
  attemptTimeoutMs?: number;
  log?: (message: string) => void;
  /** The node's clock (Unix ms; default `Date.now`): each query is decided at its time (schedules, pauses). */
  now?: () => number;
}

/** Reads the files the configuration names (certificate, key, upstream CAs) into {@link DnsSettings}. */
export async function dnsSettingsOf(config: NodeConfig): Promise<DnsSettings> {
  const tls =
    config.tls === undefined
      ? null
      : { certificate: await readFile(config.tls.certificate), key: await readFile(config.tls.key) };
  const upstreams = await Promise.all(
    config.upstreams.map(
      async (upstream): Promise<UpstreamServer> => ({
        ...upstream.address,
        transport: upstream.transport,
        ...(upstream.tls_name === undefined ? {} : { tlsName: upstream.tls_name }),
        ...(upstream.ca_file === undefined ? {} : { ca: await readFile(upstream.ca_file) }),
      }),
    ),
  );
  return {
    listen: config.listen,
    tls,
    allow: config.access.allow,
    cache: {
      maxBytes: Math.round(config.cache.max_mb * 1024 * 1024),
      maxTtlSeconds: config.cache.max_ttl_seconds,
      staleSeconds: config.cache.stale_seconds,
    },
    upstreams,
    upstreamTimeoutMs: config.upstream_timeout_ms,
  };
}

/**
 * The node's DNS side: Do53 (UDP and TCP), DoT and DoH listeners on the configured addresses, all answering
 * through one resolver, one answer cache and one upstream pool, for the clients of the allow-list. The
 * allow-list, the upstreams and the certificate change on {@link reload}; the listening addresses and the cache
 * size only on a restart.
 */
export class DnsService {
  private access: ClientAccess;
  private readonly do53: Do53Listener[] = [];
  private readonly dot: StreamListener[] = [];
  private readonly doh: DohListener[] = [];

  private constructor(
    settings: DnsSettings,
    readonly cache: AnswerCache,
    readonly upstreams: UpstreamPool,
  ) {
    this.access = ClientAccess.of(settings.allow);
  }

  static async start(options: DnsServiceOptions): Promise<DnsService> {
    const { settings } = options;
    const log = options.log ?? (() => undefined);
    const service = new DnsService(
      settings,
      new AnswerCache(settings.cache),
      new UpstreamPool(settings.upstreams, {
        timeoutMs: settings.upstreamTimeoutMs,
        ...(options.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: options.attemptTimeoutMs }),
      }),
    );
    const resolver = new DnsResolver({
      profile: options.profile,
      forwarder: new Forwarder({
        cache: service.cache,
        upstreams: service.upstreams,
        onUpstreamFailure: (error) => log(`upstream failed: ${error.message}`),
      }),
      access: () => service.access,
      record: options.record,
      ...(options.count === undefined ? {} : { count: options.count }),
      ...(options.blockAnswers === undefined ? {} : { blockAnswers: options.blockAnswers }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    const limits = options.streamLimits ?? {};
    try {
      for (const address of settings.listen.dns)
        service.do53.push(await Do53Listener.listen(resolver, address.host, address.port, limits));
      for (const address of settings.listen.dot)
        service.dot.push(
          await StreamListener.tls(resolver, address.host, address.port, tlsOf(settings), limits),
        );
      for (const address of settings.listen.doh)
        service.doh.push(await DohListener.listen(resolver, address.host, address.port, tlsOf(settings)));
    } catch (error) {
      // A port in use: nothing of a half-started service stays behind.
      await service.close();
      throw error;
    }
    return service;
  }

  /** Where Do53, DoT and DoH answer (ports as bound, when 0 was asked). */
  get addresses(): { dns: Address[]; dot: Address[]; doh: string[] } {
    return {
      dns: this.do53.map((listener) => listener.address),
      dot: this.dot.map((listener) => listener.address),
      doh: this.doh.map((listener) => listener.url),
    };
  }

  /** Applies what can change while running: the allow-list, the upstreams and the certificate. */
  reload(settings: DnsSettings): void {
    this.access = ClientAccess.of(settings.allow);
    this.upstreams.replace(settings.upstreams);
    if (settings.tls !== null) {
      const tls = settings.tls;
      for (const listener of [...this.dot, ...this.doh]) listener.useCertificate(tls);
    }
  }

  get counters(): { cache: CacheCounters; upstreams: UpstreamHealth[] } {
    return { cache: this.cache.counters, upstreams: this.upstreams.health };
  }

  async close(): Promise<void> {
    const listeners = [...this.do53.splice(0), ...this.dot.splice(0), ...this.doh.splice(0)];
    await Promise.all(listeners.map((listener) => listener.close()));
  }
}

function tlsOf(settings: DnsSettings): TlsCertificate {
  if (settings.tls === null) throw new Error('DoT and DoH need a certificate (the tls section)');
  return settings.tls;
}
