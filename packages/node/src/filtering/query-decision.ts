import type { NodeFilter, QueryDecision, QueryToDecide } from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';

/**
 * The seam between deciding a query and answering it. The DNS side of this node (transports, message
 * building, truncation, EDNS, the upstream) only ever sees a {@link QueryDecision} of the decision function
 * shared with the cloud and `svc simulate` (`decideQuery`, through the kit's {@link NodeFilter}); this node has
 * no filtering logic of its own.
 */

/** Extended DNS Error info codes this node sends on its own (RFC 8914 section 4); blocks carry the decision's. */
export const EDE = {
  /** 15 Blocked: an operator block (spec 3, 4.10), whatever the profile says. */
  blocked: 15,
  /** 3 Stale Answer: served from the cache past its TTL because no upstream answered (RFC 8767). */
  staleAnswer: 3,
  /** 17 Filtered: the profile's own filtering (rules, lists, parental, security). */
  filtered: 17,
  /** 18 Prohibited: the client's address is not in the node's allow-list. */
  prohibited: 18,
  /** 23 Network Error: the upstream failed or did not answer. */
  networkError: 23,
} as const;

/** An Extended DNS Error (RFC 8914): the info code and its extra text. */
export interface ExtendedError {
  code: number;
  text: string;
}

/** The logging settings of the profile in force (spec 2.3). */
interface QueryLogging {
  /** The profile logs at all (`logs_enabled`, and the profile is not suspended from logging). */
  readonly logging: boolean;
  readonly logClientIp: boolean;
  readonly logDomains: boolean;
}

/** Everything the resolver asks of the profile in force: its decisions and its logging settings. */
export interface ProfileInForce extends QueryLogging {
  decide(query: QueryToDecide): QueryDecision;
}

/** The profile in force of a {@link NodeFilter}: its decisions, and the logging of its profile document. */
export class FilterInForce implements ProfileInForce {
  constructor(private readonly filter: NodeFilter) {}

  private get document(): NodeProfileDocument {
    const document = this.filter.profile;
    if (document === null) throw new Error('no verified profile applied yet');
    return document;
  }

  get logging(): boolean {
    return this.document.logging;
  }

  get logClientIp(): boolean {
    return this.document.settings.log_client_ip;
  }

  get logDomains(): boolean {
    return this.document.settings.log_domains;
  }

  decide(query: QueryToDecide): QueryDecision {
    return this.filter.decide(query);
  }
}
