import {
  type AnswerSections,
  type ClientQuery,
  checkingDisabled,
  dnssecOk,
  errorSections,
  RCODE,
  upstreamQuery,
} from '../dns/dns-message.js';
import { EDE, type ExtendedError } from '../filtering/query-decision.js';
import { AnswerCache, type CachedSections } from './answer-cache.js';
import type { UpstreamPool } from './upstream-pool.js';

const UPSTREAM_FAILED: ExtendedError = {
  code: EDE.networkError,
  text: 'the upstream resolver did not answer',
};
const STALE: ExtendedError = { code: EDE.staleAnswer, text: 'no upstream answered: served from the cache' };

/** How a forwarded name was answered. */
export interface Forwarded {
  status: 'allowed' | 'error';
  sections: AnswerSections;
  /** The answer came from the cache (fresh, or stale when no upstream answered). */
  cacheHit: boolean;
}

/** What a {@link Forwarder} works with. */
export interface ForwarderOptions {
  cache: AnswerCache;
  upstreams: UpstreamPool;
  /** Told why no upstream answered a query (the client then gets a stale answer or SERVFAIL). */
  onUpstreamFailure?: (error: Error) => void;
}

/**
 * Answers the names the profile decided to forward: from the cache while fresh, else from the upstream pool
 * (and into the cache), else, when no upstream answers, from the cache past its TTL with EDE 3 (RFC 8767), else
 * SERVFAIL with EDE 23. The decision is made before the forwarder is asked, for every query, so the cache never
 * answers a name the profile now blocks.
 */
export class Forwarder {
  constructor(private readonly options: ForwarderOptions) {}

  async forward(query: ClientQuery, name: string): Promise<Forwarded> {
    const key = AnswerCache.key({
      name,
      type: query.question.type,
      class: query.question.class ?? 'IN',
      dnssecOk: dnssecOk(query),
      checkingDisabled: checkingDisabled(query),
    });
    const fresh = this.options.cache.fresh(key);
    if (fresh !== null)
      return { status: 'allowed', sections: sectionsOf(fresh, query, null), cacheHit: true };
    try {
      const answer = await this.options.upstreams.ask(upstreamQuery(query, name));
      // AD is passed on only from an upstream reached over an authenticated transport (DoT): over UDP or TCP
      // anyone on the path could have set it.
      const authenticData = answer.authenticated && answer.message.flag_ad === true;
      const sections = this.options.cache.put(key, answer.message, answer.wire.length, authenticData);
      return { status: 'allowed', sections: sectionsOf(sections, query, null), cacheHit: false };
    } catch (error) {
      this.options.onUpstreamFailure?.(error instanceof Error ? error : new Error(String(error)));
      const stale = this.options.cache.stale(key);
      if (stale !== null)
        return { status: 'allowed', sections: sectionsOf(stale, query, STALE), cacheHit: true };
      return { status: 'error', sections: errorSections(RCODE.servFail, UPSTREAM_FAILED), cacheHit: false };
    }
  }
}

/**
 * The sections of the answer to one client. AD is set only when the client can use it (it sent DO or AD,
 * RFC 6840 5.7); DNSSEC records are kept only for a client that sent DO (they were asked for it alone, as the
 * key has the DO bit).
 */
function sectionsOf(sections: CachedSections, query: ClientQuery, ede: ExtendedError | null): AnswerSections {
  const askedForAd = dnssecOk(query) || (query.flags & AD_BIT) !== 0;
  return {
    rcode: sections.rcode,
    answers: sections.answers,
    authorities: sections.authorities,
    additionals: sections.additionals,
    authenticData: sections.authenticData && askedForAd,
    ede,
  };
}

/** The AD bit of the header flags (RFC 4035 3.2.3); a query may set it to ask for it (RFC 6840 5.7). */
const AD_BIT = 1 << 5;
