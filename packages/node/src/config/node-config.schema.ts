import { z } from 'zod';
import { PRIVATE_CLIENTS } from '../listeners/client-access.js';

/** `host:port`, with an IPv6 host in brackets (`[::1]:53`). */
const HOST_PORT = /^(?:\[(?<v6>[0-9A-Fa-f:.]+)\]|(?<host>[^\s:[\]]+)):(?<port>\d{1,5})$/;

/** An address and port to listen on or to reach, read from `host:port`. */
interface HostPort {
  host: string;
  port: number;
}

/** Reads `host:port` (`[v6]:port` for IPv6); null when it is not one. */
function hostPortOf(text: string): HostPort | null {
  const match = HOST_PORT.exec(text.trim());
  const host = match?.groups?.v6 ?? match?.groups?.host;
  const port = Number(match?.groups?.port);
  if (host === undefined || !Number.isInteger(port) || port > 65_535) return null;
  return { host, port };
}

const Address = z.string().transform((text, context): HostPort => {
  const address = hostPortOf(text);
  if (address === null) {
    context.addIssue({ code: 'custom', message: `"${text}" is not host:port (IPv6 as [::1]:53)` });
    return z.NEVER;
  }
  return address;
});

/** One upstream resolver: its address, transport, and for DoT the name its certificate carries. */
const UpstreamSetting = z.strictObject({
  address: Address,
  /** `udp` (TCP again for truncated answers), `tcp`, or `tls` (DNS over TLS, RFC 7858; port 853 usually). */
  transport: z.enum(['udp', 'tcp', 'tls']).default('udp'),
  /** DoT only: the name the server's certificate must carry (default: the address's host). */
  tls_name: z.string().min(1).optional(),
  /** DoT only: a PEM file of the certificates to trust instead of the system's (a resolver of your own). */
  ca_file: z.string().min(1).optional(),
});

/**
 * The node's configuration file (TOML or JSON; packages/node/README.md documents each field), after the
 * environment's overrides. Sections with every field defaulted may be left out.
 */
export const NodeConfig = z
  .strictObject({
    /** The API's base address, without `/v1`. */
    api_url: z.url({ protocol: /^https?$/ }),
    /** Where the node keeps its token, signing keys, profile document, lists, operator files and query log. */
    data_dir: z.string().min(1),
    /** Answer clients on public addresses (an open resolver); refused at start unless true. */
    open_resolver: z.boolean().default(false),
    listen: z
      .strictObject({
        /** Plain DNS (Do53), UDP and TCP on each address. */
        dns: z.array(Address).default([{ host: '127.0.0.1', port: 53 }]),
        /** DNS over TLS (RFC 7858); needs `tls`. */
        dot: z.array(Address).default([]),
        /** DNS over HTTPS (RFC 8484), HTTP/2 and HTTP/1.1 over TLS, on `/dns-query`; needs `tls`. */
        doh: z.array(Address).default([]),
      })
      .prefault({}),
    /** The certificate chain and key (PEM files) DoT and DoH serve; read again on SIGHUP. */
    tls: z.strictObject({ certificate: z.string().min(1), key: z.string().min(1) }).optional(),
    access: z
      .strictObject({
        /** Client ranges answered (CIDR); others get REFUSED. Default: loopback and private ranges. */
        allow: z.array(z.string().min(1)).default([...PRIVATE_CLIENTS]),
      })
      .prefault({}),
    cache: z
      .strictObject({
        /** Approximate memory the cache may use, in MiB; 0 turns it off. */
        max_mb: z.number().min(0).max(65_536).default(64),
        /** Longest an answer stays fresh, whatever its TTL. */
        max_ttl_seconds: z.int().min(0).max(604_800).default(86_400),
        /** How long past its TTL an answer may be served while no upstream answers (RFC 8767). */
        stale_seconds: z.int().min(0).max(604_800).default(86_400),
      })
      .prefault({}),
    /** Tried in order, the next when one fails (failover). */
    upstreams: z.array(UpstreamSetting).min(1),
    /** Time one query may take over all the upstreams it tries, in milliseconds. */
    upstream_timeout_ms: z.int().min(100).max(30_000).default(2_500),
    query_log: z
      .strictObject({
        /** Rows kept in `<data_dir>/queries.jsonl`; the oldest go first. */
        max_rows: z.int().min(0).max(10_000_000).default(100_000),
      })
      .prefault({}),
  })
  .superRefine((config, context) => {
    const encrypted = config.listen.dot.length + config.listen.doh.length;
    if (encrypted > 0 && config.tls === undefined)
      context.addIssue({
        code: 'custom',
        path: ['tls'],
        message: 'listen.dot and listen.doh need a tls section',
      });
  });
export type NodeConfig = z.infer<typeof NodeConfig>;
