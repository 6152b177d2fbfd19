import {
  type Answer,
  AUTHENTIC_DATA,
  CHECKING_DISABLED,
  type DecodedPacket,
  DNSSEC_OK,
  decode,
  encode,
  type OptAnswer,
  type Packet,
  type PacketOpt,
  type Question,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
  type SoaAnswer,
  TRUNCATED_RESPONSE,
} from 'dns-packet';
import type { ExtendedError } from '../filtering/query-decision.js';

/** Response codes this node answers with (RFC 1035 4.1.1). */
export const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, notImp: 4, refused: 5 } as const;
/** BADVERS (RFC 6891 6.1.3) is extended rcode 16: 1 in the OPT record's upper eight bits, 0 in the header. */
const BADVERS_UPPER_BITS = 1;
/**
 * The UDP payload size this node advertises, and the largest answer it sends over UDP whatever the client
 * advertised: the size that avoids IP fragmentation on common paths (DNS Flag Day 2020, RFC 9715).
 */
const NODE_UDP_PAYLOAD = 1232;
/** The largest UDP answer to a query without EDNS (RFC 1035 4.2.1). */
const CLASSIC_UDP_LIMIT = 512;
/** The largest message a stream carries (its length prefix is 16 bits, RFC 7766 8). */
const MAX_MESSAGE = 65_535;
/** The EDNS option code of an Extended DNS Error (RFC 8914 2). */
const EDE_OPTION_CODE = 15;
/** TTL of the records this node makes up (blocks and rewrites), and the negative TTL of its SOA. */
export const SYNTHESISED_TTL = 60;
/** The SOA the node's negative answers carry (RFC 2308 3); `.invalid` names can belong to no real zone. */
const NEGATIVE_SOA = {
  mname: 'svc-node.invalid',
  rname: 'hostmaster.svc-node.invalid',
  serial: 1,
  refresh: 1800,
  retry: 900,
  expire: 604_800,
  minimum: SYNTHESISED_TTL,
};
const OPCODE_QUERY = 0;

/** The EDNS(0) part of a client's query (RFC 6891). */
interface ClientEdns {
  udpPayloadSize: number;
  /** DO bit (RFC 3225), copied into the answer's OPT record. */
  dnssecOk: boolean;
}

/** A client's query, checked: one question, opcode QUERY, EDNS version 0 if any. */
export interface ClientQuery {
  id: number;
  flags: number;
  question: Question;
  /** The numeric type of the question. */
  qtype: number;
  edns: ClientEdns | null;
}

/** What a received message is: a query to decide, a query answered at once with an error, or not a query. */
export type ReadQuery =
  | { kind: 'query'; query: ClientQuery }
  | { kind: 'error'; answer: Buffer }
  | { kind: 'not-a-query' };

/** The sections of an answer before encoding. */
export interface AnswerSections {
  rcode: number;
  answers: Answer[];
  authorities: Answer[];
  /** Additional records of an upstream answer (glue, signatures), the OPT record left out. */
  additionals?: Answer[];
  /** The AD bit: set only when an upstream reached over an authenticated transport said so (see the README). */
  authenticData?: boolean;
  /** The Extended DNS Error the OPT record carries, when the client sent EDNS. */
  ede: ExtendedError | null;
}

/**
 * Reads a message a client sent. Responses and bytes that are no DNS message are not answered; a query with
 * another opcode gets NOTIMP, one without exactly one question or with more than one OPT record FORMERR
 * (RFC 6891 6.1.1), one with an EDNS version above 0 BADVERS (RFC 6891 6.1.3).
 */
export function readQuery(wire: Buffer): ReadQuery {
  const message = decodeOrNull(wire);
  if (message === null || message.type !== 'query') return { kind: 'not-a-query' };
  const flags = message.flags ?? 0;
  const id = message.id ?? 0;
  const questions = message.questions ?? [];
  let opt: OptAnswer | undefined;
  let opts = 0;
  for (const record of message.additionals ?? []) {
    if (record.type !== 'OPT') continue;
    opts += 1;
    opt = record;
  }
  const edns: ClientEdns | null =
    opt === undefined || opts > 1
      ? null
      : { udpPayloadSize: opt.udpPayloadSize, dnssecOk: (opt.flags & DNSSEC_OK) !== 0 };
  const question = questions[0];
  if (((flags >> 11) & 0xf) !== OPCODE_QUERY) return refusal(id, flags, edns, RCODE.notImp, questions);
  if (question === undefined || questions.length > 1 || opts > 1)
    return refusal(id, flags, edns, RCODE.formErr, []);
  if (opt !== undefined && opt.ednsVersion > 0)
    return refusal(id, flags, edns, RCODE.noError, [question], BADVERS_UPPER_BITS);
  return { kind: 'query', query: { id, flags, question, qtype: questionType(wire), edns } };
}

/** A query answered at once with an error rcode (and extended rcode). */
function refusal(
  id: number,
  flags: number,
  edns: ClientEdns | null,
  rcode: number,
  echoed: Question[],
  extendedRcode = 0,
): ReadQuery {
  const packet = responsePacket({ id, flags, edns }, echoed, errorSections(rcode), { extendedRcode });
  return { kind: 'error', answer: encode(packet) };
}

/**
 * The largest answer a client takes: over UDP its EDNS payload size (at least 512, at most
 * {@link NODE_UDP_PAYLOAD}), 512 without EDNS; over a stream, any message.
 */
export function answerSizeLimit(query: ClientQuery, overUdp: boolean): number {
  if (!overUdp) return MAX_MESSAGE;
  if (query.edns === null) return CLASSIC_UDP_LIMIT;
  return Math.min(Math.max(query.edns.udpPayloadSize, CLASSIC_UDP_LIMIT), NODE_UDP_PAYLOAD);
}

/**
 * The answer in wire format, or, when it does not fit `limit`, the same header with TC set and no records
 * but the OPT (RFC 2181 9, RFC 7766 5): the client asks again over TCP.
 */
export function encodeAnswer(query: ClientQuery, sections: AnswerSections, limit: number): Buffer {
  const whole = encode(responsePacket(query, [query.question], sections));
  if (whole.length <= limit) return whole;
  return truncatedAnswer(query, sections.rcode, sections.ede);
}

/** An answer that says only that it did not fit: TC set, the question, and the OPT record. */
export function truncatedAnswer(query: ClientQuery, rcode: number, ede: ExtendedError | null): Buffer {
  return encode(
    responsePacket(
      query,
      [query.question],
      { rcode, answers: [], authorities: [], ede },
      { truncated: true },
    ),
  );
}

/** The sections of an answer with only an rcode (and the EDE saying why, if any). */
export function errorSections(rcode: number, ede: ExtendedError | null = null): AnswerSections {
  return { rcode, answers: [], authorities: [], ede };
}

/**
 * The SOA record a negative answer (NXDOMAIN or NODATA) made up by this node carries in its authority section,
 * owned by the query name as if it were a zone of its own; its TTL and MINIMUM give the negative TTL
 * (RFC 2308 3, 5).
 */
export function negativeSoa(qname: string): SoaAnswer {
  return { type: 'SOA', name: qname, ttl: SYNTHESISED_TTL, class: 'IN', data: NEGATIVE_SOA };
}

/**
 * How long an answer may be cached, in seconds: its smallest TTL in the answer and authority sections, with a
 * SOA's MINIMUM counted for negative answers (RFC 2308 5, RFC 8484 5.1); 0 for an answer without records.
 */
export function cacheSeconds(message: Packet): number {
  let smallest: number | null = null;
  for (const record of [...(message.answers ?? []), ...(message.authorities ?? [])]) {
    if (record.type === 'OPT') continue;
    let ttl = record.ttl ?? 0;
    if (record.type === 'SOA') ttl = Math.min(ttl, record.data.minimum ?? ttl);
    smallest = smallest === null ? ttl : Math.min(smallest, ttl);
  }
  return smallest ?? 0;
}

/**
 * The query this node sends upstream for `name`, of the client's query type and class: RD set, the CD bit
 * passed on, and EDNS with a payload size of 1232 (DNS Flag Day 2020) and the client's DO bit, whether or not the
 * client sent EDNS itself (the answer is cached and re-encoded for each client, so it is asked for whole).
 */
export function upstreamQuery(query: ClientQuery, name: string): Buffer {
  return encode({
    type: 'query',
    id: 0,
    flags: RECURSION_DESIRED | (query.flags & CHECKING_DISABLED),
    questions: [{ name, type: query.question.type, class: query.question.class ?? 'IN' }],
    additionals: [optRecord({ udpPayloadSize: NODE_UDP_PAYLOAD, dnssecOk: dnssecOk(query) }, null, 0)],
  });
}

/** The client asked for DNSSEC records (the DO bit, RFC 3225). */
export function dnssecOk(query: ClientQuery): boolean {
  return query.edns?.dnssecOk === true;
}

/** The client set CD (RFC 4035 3.2.2): it validates itself and wants answers that failed validation too. */
export function checkingDisabled(query: ClientQuery): boolean {
  return (query.flags & CHECKING_DISABLED) !== 0;
}

/** The message, or null for bytes that do not decode as one (the packet library throws on them). */
export function decodeOrNull(wire: Buffer): DecodedPacket | null {
  try {
    return decode(wire);
  } catch (error) {
    if (error instanceof Error) return null;
    throw error;
  }
}

/** The rcode of a decoded message (the low four bits of its flags). */
export function rcodeOf(message: Packet): number {
  return (message.flags ?? 0) & 0xf;
}

function responsePacket(
  query: Pick<ClientQuery, 'id' | 'flags' | 'edns'>,
  questions: Question[],
  sections: AnswerSections,
  options: { truncated?: boolean; extendedRcode?: number } = {},
): Packet {
  const copied = query.flags & (RECURSION_DESIRED | CHECKING_DISABLED);
  const truncated = options.truncated === true ? TRUNCATED_RESPONSE : 0;
  const authentic = sections.authenticData === true ? AUTHENTIC_DATA : 0;
  const opt = query.edns === null ? [] : [optRecord(query.edns, sections.ede, options.extendedRcode ?? 0)];
  return {
    type: 'response',
    id: query.id,
    flags: copied | RECURSION_AVAILABLE | truncated | authentic | (sections.rcode & 0xf),
    questions,
    answers: sections.answers,
    authorities: sections.authorities,
    additionals: options.truncated === true ? opt : [...(sections.additionals ?? []), ...opt],
  };
}

/** The OPT record of an answer to a query that had one (RFC 6891 6.1.1): the DO bit copied, EDE if any. */
function optRecord(edns: ClientEdns, ede: ExtendedError | null, extendedRcode: number): OptAnswer {
  return {
    type: 'OPT',
    name: '.',
    udpPayloadSize: NODE_UDP_PAYLOAD,
    extendedRcode,
    ednsVersion: 0,
    flags: edns.dnssecOk ? DNSSEC_OK : 0,
    flag_do: edns.dnssecOk,
    options: ede === null ? [] : [extendedErrorOption(ede)],
  };
}

/**
 * The EDE option (RFC 8914 2): INFO-CODE then UTF-8 EXTRA-TEXT. dns-packet encodes any option given as
 * `{ code, data }`; its type definitions list only the option codes it parses into fields, so this one place
 * widens the option to them.
 */
function extendedErrorOption(ede: ExtendedError): PacketOpt {
  const text = Buffer.from(ede.text, 'utf8');
  const data = Buffer.alloc(2 + text.length);
  data.writeUInt16BE(ede.code, 0);
  text.copy(data, 2);
  const option: { code: number; data: Buffer } = { code: EDE_OPTION_CODE, data };
  return option as unknown as PacketOpt;
}

/** The numeric type of the first question, read off the wire (the packet library names types as text). */
function questionType(wire: Buffer): number {
  let at = 12;
  while (at < wire.length && wire[at] !== 0) at += (wire[at] as number) + 1;
  return at + 2 < wire.length ? wire.readUInt16BE(at + 1) : 0;
}
