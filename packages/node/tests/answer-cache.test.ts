import { type Answer, type DecodedPacket, decode, encode } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { AnswerCache, STALE_TTL } from '../src/index.js';

const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;

function message(rcode: number, answers: Answer[], authorities: Answer[] = []): DecodedPacket {
  return decode(encode({ type: 'response', id: 1, flags: rcode, questions: [], answers, authorities }));
}

function a(name: string, ttl: number): Answer {
  return { type: 'A', name, ttl, class: 'IN', data: '203.0.113.7' };
}

const soa = (ttl: number, minimum: number): Answer => ({
  type: 'SOA',
  name: 'example',
  ttl,
  class: 'IN',
  data: { mname: 'ns.example', rname: 'host.example', serial: 1, refresh: 1, retry: 1, expire: 1, minimum },
});

function cacheAt(options: ConstructorParameters<typeof AnswerCache>[0] = {}) {
  const clock = { now: 1_000_000 };
  return { clock, cache: new AnswerCache({ ...options, now: () => clock.now }) };
}

const key = (name: string) =>
  AnswerCache.key({ name, type: 'A', class: 'IN', dnssecOk: false, checkingDisabled: false });

describe(AnswerCache.name, () => {
  it('serves an answer fresh for its smallest TTL, the TTLs counting down, then no longer', () => {
    const { clock, cache: sut } = cacheAt();
    sut.put(key('a.example'), message(NOERROR, [a('a.example', 60), a('a.example', 30)]), 100, false);
    clock.now += 10_500;
    expect(sut.fresh(key('a.example'))?.answers.map((record) => record.type !== 'OPT' && record.ttl)).toEqual(
      [50, 20],
    );
    clock.now += 20_000;
    expect(sut.fresh(key('a.example'))).toBeNull();
  });

  it('tells names apart without regard to case or the trailing dot, and tells the DO and CD bits apart', () => {
    expect(key('A.Example.')).toBe(key('a.example'));
    const withDo = AnswerCache.key({
      name: 'a.example',
      type: 'A',
      class: 'IN',
      dnssecOk: true,
      checkingDisabled: false,
    });
    expect(withDo).not.toBe(key('a.example'));
  });

  it('keeps a negative answer for min(SOA TTL, MINIMUM) and serves its SOA with that TTL (RFC 2308 5)', () => {
    const { clock, cache: sut } = cacheAt();
    const served = sut.put(key('n.example'), message(NXDOMAIN, [], [soa(900, 120)]), 100, false);
    expect(served.authorities[0]).toMatchObject({ type: 'SOA', ttl: 120 });
    clock.now += 119_000;
    expect(sut.fresh(key('n.example'))?.rcode).toBe(NXDOMAIN);
    clock.now += 1_000;
    expect(sut.fresh(key('n.example'))).toBeNull();
  });

  it('does not keep a negative answer without a SOA, nor an error answer', () => {
    const { cache: sut } = cacheAt();
    sut.put(key('nosoa.example'), message(NXDOMAIN, []), 100, false);
    sut.put(key('fail.example'), message(SERVFAIL, []), 100, false);
    expect(sut.counters.entries).toBe(0);
  });

  it('caps the freshness of a long TTL at max_ttl_seconds', () => {
    const { clock, cache: sut } = cacheAt({ maxTtlSeconds: 60 });
    sut.put(key('long.example'), message(NOERROR, [a('long.example', 86_400)]), 100, false);
    clock.now += 61_000;
    expect(sut.fresh(key('long.example'))).toBeNull();
  });

  it('serves an expired answer as stale with TTL 30 within the stale window only (RFC 8767)', () => {
    const { clock, cache: sut } = cacheAt({ staleSeconds: 3_600 });
    sut.put(key('s.example'), message(NOERROR, [a('s.example', 60)]), 100, false);
    clock.now += 61_000;
    expect(sut.fresh(key('s.example'))).toBeNull();
    expect(sut.stale(key('s.example'))?.answers).toMatchObject([{ ttl: STALE_TTL }]);
    clock.now += 3_600_000;
    expect(sut.stale(key('s.example'))).toBeNull();
  });

  it('stays under its memory cap by evicting the least recently used answers', () => {
    const { cache: sut } = cacheAt({ maxBytes: 3_000 });
    for (let index = 0; index < 50; index += 1)
      sut.put(key(`n${index}.example`), message(NOERROR, [a(`n${index}.example`, 300)]), 100, false);
    const { entries, bytes, evicted } = sut.counters;
    expect(bytes).toBeLessThanOrEqual(3_000);
    expect(entries).toBeGreaterThan(0);
    expect(evicted).toBe(50 - entries);
    expect(sut.fresh(key('n49.example'))).not.toBeNull();
    expect(sut.fresh(key('n0.example'))).toBeNull();
  });

  it('keeps an answer used again over one only stored', () => {
    const { cache: sut } = cacheAt({ maxBytes: 1_500 });
    sut.put(key('used.example'), message(NOERROR, [a('used.example', 300)]), 100, false);
    sut.put(key('once.example'), message(NOERROR, [a('once.example', 300)]), 100, false);
    sut.fresh(key('used.example'));
    sut.put(key('new.example'), message(NOERROR, [a('new.example', 300)]), 100, false);
    expect(sut.fresh(key('used.example'))).not.toBeNull();
    expect(sut.fresh(key('once.example'))).toBeNull();
  });
});
