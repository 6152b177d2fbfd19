import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { LinkedIpRecord, LinkedIpRepository } from './linked-ip.ports.js';

/**
 * How long a claimed address waits for its proof (a request from it, or its DDNS update URL called from it):
 * long enough to reach the router, short enough that a stale claim does not linger in the owner's list.
 */
export const PENDING_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Keyed-hash purposes of DDNS tokens: the token is derived from the link and its generation under the server
 * key (so the URL can be shown again without being stored), and only its own keyed hash is stored for lookup.
 */
export const DdnsPurpose = { token: 'ddns-token', lookup: 'ddns-lookup' } as const;

/** The DDNS token of a link's generation. */
export function ddnsTokenOf(keyedHash: KeyedHash, linkId: string, generation: number): string {
  return keyedHash.mac(DdnsPurpose.token, `${linkId}:${generation}`);
}

/** The stored lookup of a link's generation: the keyed hash of its token. */
export function ddnsLookupOf(keyedHash: KeyedHash, linkId: string, generation: number): string {
  return keyedHash.mac(DdnsPurpose.lookup, ddnsTokenOf(keyedHash, linkId, generation));
}

/** Created before this instant, a pending link's claim has expired. */
export function pendingCutoff(now: Date): Date {
  return new Date(now.getTime() - PENDING_LINK_LIFETIME_MS);
}

/** True for a pending address claim older than {@link PENDING_LINK_LIFETIME_MS}: it is gone. */
export function isExpiredClaim(link: Pick<LinkedIpRecord, 'state' | 'ip' | 'createdAt'>, now: Date): boolean {
  return link.state === 'pending' && link.ip !== null && link.createdAt < pendingCutoff(now);
}

/**
 * Called in the transaction that first verifies an account's address: whoever used the organisation before
 * had not proven the mailbox, so every DDNS update URL they could have read stops (each token rotated) and
 * every address they only claimed is dropped. Proven links stay: their address was shown by its own traffic.
 */
export async function endLinksOfUnverifiedPast(
  linkedIps: Pick<LinkedIpRepository, 'listOfOrganisation' | 'setDdnsToken' | 'deletePending'>,
  keyedHash: KeyedHash,
  orgId: string,
): Promise<void> {
  await linkedIps.deletePending(orgId);
  for (const link of await linkedIps.listOfOrganisation(orgId)) {
    const generation = link.ddnsGeneration + 1;
    await linkedIps.setDdnsToken(link.id, generation, ddnsLookupOf(keyedHash, link.id, generation));
  }
}
