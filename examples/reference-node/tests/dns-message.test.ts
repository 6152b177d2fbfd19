import { DNSSEC_OK, decode, encode, type OptAnswer, RECURSION_DESIRED } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import {
  answerSizeLimit,
  type ClientQuery,
  cacheSeconds,
  encodeAnswer,
  negativeSoa,
  RCODE,
  readQuery,
} from '../src/index.js';
import { edeOf, optOf, queryMessage, rcodeOf } from './support/dns-client.js';

const OPT = (udpPayloadSize: number, flags = 0): OptAnswer => ({
  type: 'OPT',
  name: '.',
  udpPayloadSize,
  extendedRcode: 0,
  ednsVersion: 0,
  flags,
  flag_do: (flags & DNSSEC_OK) !== 0,
  options: [],
});

function query(wire: Buffer): ClientQuery {
  const read = readQuery(wire);
  if (read.kind !== 'query') throw new Error(`not read as a query: ${read.kind}`);
  return read.query;
}

function errorAnswer(wire: Buffer) {
  const read = readQuery(wire);
  if (read.kind !== 'error') throw new Error(`not answered with an error: ${read.kind}`);
  return decode(read.answer);
}

describe('DNS messages of the reference node', () => {
  it('does not answer responses, nor bytes that are no DNS message', () => {
    const response = encode({ type: 'response', id: 1, questions: [{ type: 'A', name: 'a.example' }] });
    expect(readQuery(response).kind).toBe('not-a-query');
    expect(readQuery(Buffer.from([1, 2, 3])).kind).toBe('not-a-query');
    expect(readQuery(Buffer.alloc(0)).kind).toBe('not-a-query');
  });

  it('answers FORMERR to two questions, to none and to two OPT records (RFC 6891 6.1.1)', () => {
    const two = encode({
      type: 'query',
      id: 2,
      flags: RECURSION_DESIRED,
      questions: [
        { type: 'A', name: 'a.example' },
        { type: 'A', name: 'b.example' },
      ],
    });
    expect(rcodeOf(errorAnswer(two))).toBe(RCODE.formErr);
    expect(rcodeOf(errorAnswer(encode({ type: 'query', id: 3, questions: [] })))).toBe(RCODE.formErr);
    const twoOpts = encode({
      type: 'query',
      id: 4,
      questions: [{ type: 'A', name: 'a.example' }],
      additionals: [OPT(1232), OPT(4096)],
    });
    const answer = errorAnswer(twoOpts);
    expect(rcodeOf(answer)).toBe(RCODE.formErr);
    expect(answer.id).toBe(4);
  });

  it('takes what the client advertised, between 512 and its own 1232, over UDP only', () => {
    const sized = (size: number) => query(queryMessage('a.example', 'A', 1, { udpPayloadSize: size }));
    expect(answerSizeLimit(query(queryMessage('a.example', 'A')), true)).toBe(512);
    expect(answerSizeLimit(sized(100), true)).toBe(512);
    expect(answerSizeLimit(sized(900), true)).toBe(900);
    expect(answerSizeLimit(sized(65_000), true)).toBe(1232);
    expect(answerSizeLimit(sized(900), false)).toBe(65_535);
  });

  it('copies the DO bit into its OPT record and carries the EDE with its text in UTF-8', () => {
    const asked = encode({
      type: 'query',
      id: 5,
      flags: RECURSION_DESIRED,
      questions: [{ type: 'A', name: 'bücher.example' }],
      additionals: [OPT(1232, DNSSEC_OK)],
    });
    const sections = {
      rcode: RCODE.nxDomain,
      answers: [],
      authorities: [negativeSoa('bücher.example')],
      ede: { code: 17, text: 'bücher.example' },
    };
    const answer = decode(encodeAnswer(query(asked), sections, 1232));
    expect(optOf(answer)).toMatchObject({ flag_do: true, udpPayloadSize: 1232, ednsVersion: 0 });
    expect(edeOf(answer)).toEqual({ code: 17, text: 'bücher.example' });
    expect(answer.flag_rd).toBe(true);
    expect(answer.flag_ra).toBe(true);
  });

  it('caches for the smallest TTL, counting a SOA as the lesser of its TTL and MINIMUM (RFC 2308 5)', () => {
    expect(
      cacheSeconds({
        answers: [
          { type: 'A', name: 'a', ttl: 300, data: '192.0.2.1' },
          { type: 'A', name: 'a', ttl: 30, data: '192.0.2.2' },
        ],
      }),
    ).toBe(30);
    const soa = { ...negativeSoa('a'), ttl: 900 };
    expect(cacheSeconds({ authorities: [{ ...soa, data: { ...soa.data, minimum: 120 } }] })).toBe(120);
    expect(cacheSeconds({ answers: [] })).toBe(0);
  });
});
