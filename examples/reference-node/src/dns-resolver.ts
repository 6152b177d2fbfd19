import {
  type AnswerSections,
  answerSizeLimit,
  type ClientQuery,
  cacheSeconds,
  encodeAnswer,
  errorSections,
  negativeSoa,
  RCODE,
  rcodeOf,
  readQuery,
  SYNTHESISED_TTL,
  truncatedAnswer,
  upstreamQuery,
} from '@svc/node/dns-wire';
import { EDE, type ExtendedError, type ProfileInForce } from '@svc/node/filtering';
import type { QueryOrigin, ResolvedAnswer } from '@svc/node/listeners';
import type { QueryToRecord, RecordedQuery } from '@svc/node/query-log';
import { type BlockMode, loggedDecision, type QueryDecision, type RewriteTarget } from '@svc/node-agent-kit';
import type { Answer } from 'dns-packet';
import { askUpstream, type UpstreamAddress, type UpstreamAnswer } from './upstream-resolver.js';

const QTYPE = { A: 1, CNAME: 5, AAAA: 28 } as const;
/** Longest chain of rewrites to host names followed for one query (a loop ends here with SERVFAIL). */
const MAX_REWRITE_CHAIN = 8;
const UPSTREAM_FAILED: ExtendedError = {
  code: EDE.networkError,
  text: 'the upstream resolver did not answer',
};

/** The addresses a `block-page` block answers with (spec 2.3), and those of `null`. */
export interface BlockAnswers {
  blockPageV4: string;
  blockPageV6: string;
}

/** Options of a {@link DnsResolver}. */
export interface DnsResolverOptions {
  /** The profile in force: what decides queries and how they are logged (changes with each applied document). */
  profile: () => ProfileInForce;
  upstream: UpstreamAddress;
  upstreamTimeoutMs?: number;
  blockAnswers?: BlockAnswers;
  /** Records a query the profile's logging settings keep. */
  record: (query: QueryToRecord) => RecordedQuery;
  /** Counts every query answered, logged or not (the node's hourly totals, spec 4.6 rule 1). */
  count?: (status: RecordedQuery['status'], at: number) => void;
  /** Told why the upstream failed a query (the client then gets SERVFAIL). */
  onUpstreamFailure?: (error: Error) => void;
  /**
   * The node's clock (Unix ms; default `Date.now`): each query is decided at its time, so operator entries
   * expire and the owner's pause ends by it, without the API.
   */
  now?: () => number;
}

/** How a query was answered, before encoding. */
interface Resolution {
  status: RecordedQuery['status'];
  sections: AnswerSections;
  /** The upstream's own answer, sent as it came (id aside) when it is the whole answer. */
  upstream: UpstreamAnswer | null;
}

/**
 * Answers DNS queries for one profile, whatever the transport: the {@link QueryDecision} of the profile in
 * force says forward (the upstream's answer), block (the block mode's answer with an Extended DNS Error) or
 * rewrite (the rewrite's records; a host name answers its CNAME and the target's own answer, decided the same
 * way). Negative answers it makes up carry a SOA (RFC 2308); answers over UDP are truncated to the client's
 * size (TC); every query is then recorded as the profile's logging settings allow (spec 2.3).
 */
export class DnsResolver {
  private readonly blockAnswers: BlockAnswers;

  constructor(private readonly options: DnsResolverOptions) {
    this.blockAnswers = options.blockAnswers ?? {
      blockPageV4: '198.51.100.53',
      blockPageV6: '2001:db8:53::53',
    };
  }

  /** The answer to one message in wire format, or null for bytes that are not a DNS query (dropped). */
  async resolve(wire: Buffer, origin: QueryOrigin): Promise<ResolvedAnswer | null> {
    const started = process.hrtime.bigint();
    const read = readQuery(wire);
    // Not a DNS query: nothing to answer it with, and nothing worth a log row.
    if (read.kind === 'not-a-query') return null;
    if (read.kind === 'error') return { wire: read.answer, cacheSeconds: 0 };
    const query = read.query;
    const profile = this.options.profile();
    const qname = normaliseQueryName(query.question.name);
    const at = (this.options.now ?? Date.now)();
    const decision = profile.decide({ name: qname, clientIp: origin.clientIp, at, device: origin.device });
    const resolution = await this.resolution(
      profile,
      query,
      query.question.name,
      decision,
      origin,
      0,
      wire,
      at,
    );
    const answer = encoded(query, resolution, answerSizeLimit(query, origin.overUdp));
    this.options.count?.(resolution.status, at);
    if (profile.logging) {
      const latencyUs = Number((process.hrtime.bigint() - started) / 1000n);
      const logged = loggedDecision(decision);
      // Operator texts are not the client's domains: they stay when domains are not logged.
      const rule = profile.logDomains || logged.operatorCode !== '' ? logged.rule : '';
      this.options.record({
        pop: 'node',
        device_id: origin.device ?? '',
        device_name: origin.device ?? '',
        client_ip: profile.logClientIp ? origin.clientIp : '',
        transport: origin.transport,
        qname: profile.logDomains ? qname : '',
        qtype: query.qtype,
        status: resolution.status,
        reason_list_id: logged.listId,
        reason_list_name: logged.listName,
        reason_rule: rule,
        operator_code: logged.operatorCode,
        rcode: resolution.sections.rcode,
        dnssec_validated: false,
        cache_hit: false,
        latency_us: latencyUs,
        answer_ips: addressesOf(resolution.sections.answers),
      });
    }
    return answer;
  }

  /** How `name` is answered as `decision` says; `clientWire` is the client's own query, forwarded as it is. */
  private async resolution(
    profile: ProfileInForce,
    query: ClientQuery,
    name: string,
    decision: QueryDecision,
    origin: QueryOrigin,
    depth: number,
    clientWire: Buffer | null,
    at: number,
  ): Promise<Resolution> {
    switch (decision.action) {
      case 'block':
        return {
          status: 'blocked',
          sections: this.blocked(name, query.qtype, decision.blockMode ?? 'nxdomain', {
            code: decision.ede,
            text: decision.edeText,
          }),
          upstream: null,
        };
      case 'rewrite':
        return this.rewritten(profile, query, name, decision.rewrites, origin, depth, at);
      case 'allow':
      case 'forward':
        return this.forwarded(query, name, origin, clientWire);
    }
  }

  private blocked(name: string, qtype: number, blockMode: BlockMode, ede: ExtendedError): AnswerSections {
    switch (blockMode) {
      case 'nxdomain':
        return { rcode: RCODE.nxDomain, answers: [], authorities: [negativeSoa(name)], ede };
      case 'refused':
        return errorSections(RCODE.refused, ede);
      case 'null':
        return { ...addressesOrNoData(name, qtype, '0.0.0.0', '::'), ede };
      case 'block-page':
        return {
          ...addressesOrNoData(name, qtype, this.blockAnswers.blockPageV4, this.blockAnswers.blockPageV6),
          ede,
        };
    }
  }

  /**
   * A rewrite's records of the query type. A host name answers a CNAME to it followed by the target's own
   * answer, decided and resolved the way a query for the target is (RFC 1034 3.6.2): the target may itself be
   * blocked, rewritten or forwarded. Nothing of the query type is a NODATA answer with a SOA.
   */
  private async rewritten(
    profile: ProfileInForce,
    query: ClientQuery,
    name: string,
    targets: readonly RewriteTarget[],
    origin: QueryOrigin,
    depth: number,
    at: number,
  ): Promise<Resolution> {
    const alias = targets.find((target) => target.type === 'CNAME');
    if (alias === undefined) {
      const records = targets
        .filter((target) => QTYPE[target.type] === query.qtype)
        .map((target) => synthesised(target.type, name, target.data));
      const sections =
        records.length === 0
          ? { rcode: RCODE.noError, answers: [], authorities: [negativeSoa(name)], ede: null }
          : { rcode: RCODE.noError, answers: records, authorities: [], ede: null };
      return { status: 'rewritten', sections, upstream: null };
    }
    const cname = synthesised('CNAME', name, alias.data);
    if (query.qtype === QTYPE.CNAME)
      return {
        status: 'rewritten',
        sections: { rcode: RCODE.noError, answers: [cname], authorities: [], ede: null },
        upstream: null,
      };
    if (depth >= MAX_REWRITE_CHAIN)
      return { status: 'error', sections: errorSections(RCODE.servFail), upstream: null };
    const decision = profile.decide({
      name: alias.data,
      clientIp: origin.clientIp,
      at,
      device: origin.device,
    });
    const target = await this.resolution(profile, query, alias.data, decision, origin, depth + 1, null, at);
    // A target that could not be resolved fails the whole answer, as a resolver's SERVFAIL does.
    if (target.status === 'error') return target;
    return {
      status: 'rewritten',
      sections: { ...target.sections, answers: [cname, ...target.sections.answers] },
      upstream: null,
    };
  }

  private async forwarded(
    query: ClientQuery,
    name: string,
    origin: QueryOrigin,
    clientWire: Buffer | null,
  ): Promise<Resolution> {
    try {
      const upstream = await askUpstream(this.options.upstream, clientWire ?? upstreamQuery(query, name), {
        timeoutMs: this.options.upstreamTimeoutMs ?? 2_000,
        // A UDP client is sent the truncated answer and asks again over TCP; records merged here need it all.
        tcpWhenTruncated: !origin.overUdp || clientWire === null,
      });
      const message = upstream.message;
      return {
        status: 'allowed',
        sections: {
          rcode: rcodeOf(message),
          answers: message.answers ?? [],
          authorities: message.authorities ?? [],
          ede: null,
        },
        upstream: clientWire === null ? null : upstream,
      };
    } catch (error) {
      // The upstream failed or answered garbage: the client gets SERVFAIL and the log says error.
      this.options.onUpstreamFailure?.(error instanceof Error ? error : new Error(String(error)));
      return { status: 'error', sections: errorSections(RCODE.servFail, UPSTREAM_FAILED), upstream: null };
    }
  }
}

/** The answer as sent: the upstream's own bytes when they fit, else the encoded (or truncated) sections. */
function encoded(query: ClientQuery, resolution: Resolution, limit: number): ResolvedAnswer {
  const upstream = resolution.upstream;
  if (upstream !== null) {
    const fits = upstream.wire.length <= limit;
    return {
      wire: fits ? upstream.wire : truncatedAnswer(query, resolution.sections.rcode, null),
      cacheSeconds: cacheSeconds(upstream.message),
    };
  }
  const { answers, authorities } = resolution.sections;
  return {
    wire: encodeAnswer(query, resolution.sections, limit),
    cacheSeconds: resolution.sections.rcode === RCODE.servFail ? 0 : cacheSeconds({ answers, authorities }),
  };
}

const UPPER_CASE = /[A-Z]/;

/** A query name as logs record it: ASCII lower case, without the trailing dot. */
function normaliseQueryName(qname: string): string {
  const name = qname.endsWith('.') ? qname.slice(0, -1) : qname;
  return UPPER_CASE.test(name) ? name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : name;
}

function synthesised(type: 'A' | 'AAAA' | 'CNAME', name: string, data: string): Answer {
  return { type, name, ttl: SYNTHESISED_TTL, class: 'IN', data };
}

/** The block address of the query type (A or AAAA), or a NODATA answer with a SOA for any other type. */
function addressesOrNoData(name: string, qtype: number, v4: string, v6: string): Omit<AnswerSections, 'ede'> {
  if (qtype === QTYPE.A)
    return { rcode: RCODE.noError, answers: [synthesised('A', name, v4)], authorities: [] };
  if (qtype === QTYPE.AAAA)
    return { rcode: RCODE.noError, answers: [synthesised('AAAA', name, v6)], authorities: [] };
  return { rcode: RCODE.noError, answers: [], authorities: [negativeSoa(name)] };
}

function addressesOf(answers: readonly Answer[]): string[] {
  return answers.flatMap((answer) =>
    (answer.type === 'A' || answer.type === 'AAAA') && typeof answer.data === 'string' ? [answer.data] : [],
  );
}
