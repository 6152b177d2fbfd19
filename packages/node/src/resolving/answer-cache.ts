import type { Answer, DecodedPacket } from 'dns-packet';
import { RCODE, rcodeOf } from '../dns/dns-message.js';

/** What a cached answer holds: an upstream's sections, the OPT record left out. */
export interface CachedSections {
  rcode: number;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
  /** The upstream said AD over an authenticated transport (kept per entry, as the key has the DO and CD bits). */
  authenticData: boolean;
}

/** Settings of an {@link AnswerCache}; each has a default. */
export interface AnswerCacheOptions {
  /** Approximate memory the entries may take; the least recently used go first beyond it (default 64 MiB). */
  maxBytes?: number;
  /** Longest an answer is kept fresh, whatever its TTL says (default 1 day, RFC 8767 4 and RFC 2181 8). */
  maxTtlSeconds?: number;
  /** How long past its TTL an answer may still be served when no upstream answers (default 1 day, RFC 8767 5). */
  staleSeconds?: number;
  /** The clock (Unix ms; default `Date.now`). */
  now?: () => number;
}

/** Questions the cache tells apart: the name (any case), type, class, and the DO and CD bits of the query. */
export interface CacheKeyParts {
  name: string;
  type: string;
  class: string;
  dnssecOk: boolean;
  checkingDisabled: boolean;
}

/** Cache counters, for logs and the metrics to come. */
export interface CacheCounters {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  staleServed: number;
  evicted: number;
}

/** The TTL a stale answer is served with (RFC 8767 4: 30 seconds). */
export const STALE_TTL = 30;
/** Rough cost in bytes of an entry beyond its records: the key, the map slot and the entry object. */
const ENTRY_OVERHEAD = 200;
/** Rough cost of one record object (its name, data and fields) beyond its encoded size. */
const RECORD_OVERHEAD = 120;

interface Entry {
  sections: CachedSections;
  storedAt: number;
  /** When the answer stops being fresh (Unix ms). */
  expiresAt: number;
  bytes: number;
}

/**
 * The node's answer cache: upstream answers by question, fresh for their smallest TTL (RFC 1035 and RFC 2181 8),
 * negative answers for the SOA's TTL capped by its MINIMUM (RFC 2308 5; without a SOA they are not kept), served
 * with TTLs counting down from when they were stored, kept past expiry for serve-stale (RFC 8767), and held under
 * an approximate memory cap by dropping the least recently used. Error answers (SERVFAIL and the like) are not
 * kept. The cache is asked only after the profile decided a query is forwarded, so a change of profile or lists
 * applies at once.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxBytes: number;
  private readonly maxTtlMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;
  private readonly counts: Omit<CacheCounters, 'entries' | 'bytes'> = {
    hits: 0,
    misses: 0,
    staleServed: 0,
    evicted: 0,
  };
  private bytes = 0;

  constructor(options: AnswerCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxTtlMs = (options.maxTtlSeconds ?? 86_400) * 1000;
    this.staleMs = (options.staleSeconds ?? 86_400) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** The key of a question. Names compare case-insensitively (RFC 4343), without their trailing dot. */
  static key(parts: CacheKeyParts): string {
    const name = parts.name.toLowerCase().replace(/\.$/, '');
    return `${name}|${parts.type}|${parts.class}|${parts.dnssecOk ? 'do' : ''}|${parts.checkingDisabled ? 'cd' : ''}`;
  }

  /** The fresh answer to a question, its TTLs lowered by the time it spent here; null when none is fresh. */
  fresh(key: string): CachedSections | null {
    const entry = this.entries.get(key);
    const at = this.now();
    if (entry === undefined || at >= entry.expiresAt) {
      this.counts.misses += 1;
      if (entry !== undefined && at >= entry.expiresAt + this.staleMs) this.remove(key, entry);
      return null;
    }
    this.counts.hits += 1;
    // Used again: it moves to the end of the map's order, the last to be evicted.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const elapsed = Math.floor((at - entry.storedAt) / 1000);
    return withTtls(entry.sections, (ttl) => Math.max(0, ttl - elapsed));
  }

  /** An expired answer still inside the serve-stale window, with TTLs of {@link STALE_TTL}; null when none. */
  stale(key: string): CachedSections | null {
    const entry = this.entries.get(key);
    if (entry === undefined || this.now() >= entry.expiresAt + this.staleMs) return null;
    this.counts.staleServed += 1;
    return withTtls(entry.sections, () => STALE_TTL);
  }

  /**
   * Keeps an upstream answer for as long as its records allow (not at all for errors and negatives without a
   * SOA), and returns its sections as clients get them: the OPT record left out, and a negative answer's SOA with
   * the negative TTL, min(TTL, MINIMUM) (RFC 2308 5), whether kept or not.
   */
  put(key: string, message: DecodedPacket, wireLength: number, authenticData: boolean): CachedSections {
    const sections = sectionsOf(message, authenticData);
    const ttl = cacheableSeconds(sections);
    if (ttl === null || ttl === 0) return sections;
    const previous = this.entries.get(key);
    if (previous !== undefined) this.remove(key, previous);
    const storedAt = this.now();
    const records = sections.answers.length + sections.authorities.length + sections.additionals.length;
    const bytes = ENTRY_OVERHEAD + key.length * 2 + wireLength * 2 + records * RECORD_OVERHEAD;
    const expiresAt = storedAt + Math.min(ttl * 1000, this.maxTtlMs);
    this.entries.set(key, { sections, storedAt, expiresAt, bytes });
    this.bytes += bytes;
    this.evictBeyondCap();
    return sections;
  }

  /** Drops every entry (the memory cap changed to nothing, or an operator asked). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get counters(): CacheCounters {
    return { ...this.counts, entries: this.entries.size, bytes: this.bytes };
  }

  private evictBeyondCap(): void {
    // The map iterates in insertion order, and a hit re-inserts its entry: the first ones are the least used.
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(key, entry);
      this.counts.evicted += 1;
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

function sectionsOf(message: DecodedPacket, authenticData: boolean): CachedSections {
  const rcode = rcodeOf(message);
  const answers = message.answers ?? [];
  const negative = rcode === RCODE.nxDomain || (rcode === RCODE.noError && answers.length === 0);
  const authorities = (message.authorities ?? []).map((record): Answer => {
    if (!negative || record.type !== 'SOA') return record;
    return { ...record, ttl: Math.min(record.ttl ?? 0, record.data.minimum ?? 0) };
  });
  const additionals = (message.additionals ?? []).filter((record) => record.type !== 'OPT');
  return { rcode, answers, authorities, additionals, authenticData };
}

/**
 * How long an answer may be kept, in seconds, or null when it may not be: a positive answer for the smallest TTL
 * of its answer records; a negative one (NXDOMAIN, or NOERROR without answers) for its SOA's TTL capped by the
 * SOA's MINIMUM (RFC 2308 5), and not at all without a SOA (RFC 2308 5: "SHOULD NOT be cached"). Other rcodes
 * are not kept.
 */
function cacheableSeconds(sections: CachedSections): number | null {
  if (sections.rcode !== RCODE.noError && sections.rcode !== RCODE.nxDomain) return null;
  if (sections.rcode === RCODE.noError && sections.answers.length > 0)
    return Math.min(...sections.answers.map(ttlOf));
  const soa = sections.authorities.find((record) => record.type === 'SOA');
  if (soa === undefined || soa.type !== 'SOA') return null;
  return Math.min(soa.ttl ?? 0, soa.data.minimum ?? 0);
}

function withTtls(sections: CachedSections, newTtl: (ttl: number) => number): CachedSections {
  const adjust = (records: Answer[]) =>
    records.map(
      (record): Answer => (record.type === 'OPT' ? record : { ...record, ttl: newTtl(ttlOf(record)) }),
    );
  return {
    ...sections,
    answers: adjust(sections.answers),
    authorities: adjust(sections.authorities),
    additionals: adjust(sections.additionals),
  };
}

function ttlOf(record: Answer): number {
  return record.type === 'OPT' ? 0 : (record.ttl ?? 0);
}
