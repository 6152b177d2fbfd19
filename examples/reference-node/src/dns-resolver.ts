import {
  type Answer,
  type DecodedPacket,
  decode,
  encode,
  type Packet,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
} from 'dns-packet';
import type { BlockMode, FilteringDecision, FilteringPolicy } from './filtering-policy.js';
import { normaliseQueryName } from './filtering-policy.js';
import type { QueryToRecord, RecordedQuery } from './query-log-store.js';
import { forwardToUpstream, type UpstreamAddress } from './upstream-resolver.js';

const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, refused: 5 } as const;
const QTYPE_A = 1;
const QTYPE_AAAA = 28;
/** TTL of the answers this node makes up (blocks and rewrites). */
const SYNTHESISED_TTL = 60;

/** The addresses a `block-page` block answers with (spec 2.3), and those of `null`. */
export interface BlockAnswers {
  blockPageV4: string;
  blockPageV6: string;
}

/** Options of a {@link DnsResolver}. */
export interface DnsResolverOptions {
  /** The profile in force (changes when a new signed document is applied). */
  policy: () => FilteringPolicy;
  upstream: UpstreamAddress;
  upstreamTimeoutMs?: number;
  blockAnswers?: BlockAnswers;
  /** Records a query the profile's logging settings keep. */
  record: (query: QueryToRecord) => RecordedQuery;
  /** Told why the upstream failed a query (the client then gets SERVFAIL). */
  onUpstreamFailure?: (error: Error) => void;
}

/** Where a query came from. */
export interface QueryOrigin {
  transport: 'do53' | 'doh';
  clientIp: string;
}

/**
 * Answers DNS queries for one profile: allowed names go to the upstream resolver, denied names are answered as
 * the block mode says (nxdomain, refused, null, block-page), rewritten names with the rewrite's records; every
 * query is then recorded as the profile's logging settings allow (spec 2.3: logs_enabled, log_client_ip,
 * log_domains).
 */
export class DnsResolver {
  private readonly blockAnswers: BlockAnswers;

  constructor(private readonly options: DnsResolverOptions) {
    this.blockAnswers = options.blockAnswers ?? {
      blockPageV4: '198.51.100.53',
      blockPageV6: '2001:db8:53::53',
    };
  }

  /** The answer to one query in wire format, or null for bytes that are not a DNS query (dropped). */
  async resolve(wire: Buffer, origin: QueryOrigin): Promise<Buffer | null> {
    const started = process.hrtime.bigint();
    const query = decodeOrNull(wire);
    // Not a DNS query: nothing to answer it with, and nothing worth a log row.
    if (query === null || query.type !== 'query') return null;
    const question = query.questions?.[0];
    if (question === undefined) return encode(reply(query, RCODE.formErr, []));
    const qtype = questionType(wire);
    const policy = this.options.policy();
    const decision = policy.decide(question.name);
    const answered = await this.answer(wire, query, qtype, decision, policy.blockMode);
    if (policy.logging) {
      const latencyUs = Number((process.hrtime.bigint() - started) / 1000n);
      const rule = decision.status === 'allowed' || !policy.logDomains ? '' : decision.rule;
      this.options.record({
        pop: 'node',
        device_id: '',
        device_name: '',
        client_ip: policy.logClientIp ? origin.clientIp : '',
        transport: origin.transport,
        qname: policy.logDomains ? normaliseQueryName(question.name) : '',
        qtype,
        status: answered.status,
        reason_list_id: null,
        reason_list_name: '',
        reason_rule: rule,
        operator_code: '',
        rcode: answered.rcode,
        dnssec_validated: false,
        cache_hit: false,
        latency_us: latencyUs,
        answer_ips: answered.ips,
      });
    }
    return answered.wire;
  }

  private async answer(
    wire: Buffer,
    query: DecodedPacket,
    qtype: number,
    decision: FilteringDecision,
    blockMode: BlockMode,
  ): Promise<{ wire: Buffer; status: RecordedQuery['status']; rcode: number; ips: string[] }> {
    const name = query.questions?.[0]?.name ?? '';
    if (decision.status === 'rewritten') {
      const answers: Answer[] = decision.answers
        .filter((target) => target.type === 'CNAME' || target.type === typeName(qtype))
        .map((target) => ({ type: target.type, name, ttl: SYNTHESISED_TTL, class: 'IN', data: target.data }));
      return made(query, 'rewritten', RCODE.noError, answers);
    }
    if (decision.status === 'blocked') {
      switch (blockMode) {
        case 'nxdomain':
          return made(query, 'blocked', RCODE.nxDomain, []);
        case 'refused':
          return made(query, 'blocked', RCODE.refused, []);
        case 'null':
          return made(query, 'blocked', RCODE.noError, addressAnswers(name, qtype, '0.0.0.0', '::'));
        case 'block-page':
          return made(
            query,
            'blocked',
            RCODE.noError,
            addressAnswers(name, qtype, this.blockAnswers.blockPageV4, this.blockAnswers.blockPageV6),
          );
      }
    }
    try {
      const upstream = await forwardToUpstream(
        this.options.upstream,
        wire,
        this.options.upstreamTimeoutMs ?? 2_000,
      );
      const decoded = decode(upstream);
      const ips = (decoded.answers ?? []).flatMap((answer) =>
        (answer.type === 'A' || answer.type === 'AAAA') && typeof answer.data === 'string'
          ? [answer.data]
          : [],
      );
      return { wire: upstream, status: 'allowed', rcode: (decoded.flags ?? 0) & 0xf, ips };
    } catch (error) {
      // The upstream failed or answered garbage: the client gets SERVFAIL and the log says error.
      this.options.onUpstreamFailure?.(error as Error);
      return made(query, 'error', RCODE.servFail, []);
    }
  }
}

function made(
  query: DecodedPacket,
  status: RecordedQuery['status'],
  rcode: number,
  answers: Answer[],
): { wire: Buffer; status: RecordedQuery['status']; rcode: number; ips: string[] } {
  const ips = answers.flatMap((answer) =>
    (answer.type === 'A' || answer.type === 'AAAA') && typeof answer.data === 'string' ? [answer.data] : [],
  );
  return { wire: encode(reply(query, rcode, answers)), status, rcode, ips };
}

function reply(query: DecodedPacket, rcode: number, answers: Answer[]): Packet {
  return {
    type: 'response',
    id: query.id ?? 0,
    flags: ((query.flags ?? 0) & RECURSION_DESIRED) | RECURSION_AVAILABLE | rcode,
    questions: query.questions ?? [],
    answers,
  };
}

function addressAnswers(name: string, qtype: number, v4: string, v6: string): Answer[] {
  if (qtype === QTYPE_A) return [{ type: 'A', name, ttl: SYNTHESISED_TTL, class: 'IN', data: v4 }];
  if (qtype === QTYPE_AAAA) return [{ type: 'AAAA', name, ttl: SYNTHESISED_TTL, class: 'IN', data: v6 }];
  return [];
}

function typeName(qtype: number): string {
  return qtype === QTYPE_A ? 'A' : qtype === QTYPE_AAAA ? 'AAAA' : String(qtype);
}

/** The message, or null for bytes that do not decode as one (the packet library throws on them). */
function decodeOrNull(wire: Buffer): DecodedPacket | null {
  try {
    return decode(wire);
  } catch (error) {
    if (error instanceof Error) return null;
    throw error;
  }
}

/** The numeric type of the first question, read off the wire (the packet library names types as text). */
function questionType(wire: Buffer): number {
  let at = 12;
  while (at < wire.length && wire[at] !== 0) at += (wire[at] as number) + 1;
  return at + 2 < wire.length ? wire.readUInt16BE(at + 1) : 0;
}
