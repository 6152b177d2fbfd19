import type { ProfileRules } from '@svc/sdk';
import { ApiError } from '@svc/sdk';
import { api } from '../../api/client.js';

/** What allowing a domain did. */
export type AllowOutcome = { added: true; rules: ProfileRules; etag: string | undefined } | { added: false };

/**
 * Adds `domain` to the profile's allowed names (a bare name: it and everything under it), reading the rules
 * and writing them against the version read; when someone changed the profile in between, it reads again and
 * retries once. Nothing is written when the name is already allowed.
 */
export async function allowDomain(profileId: string, domain: string): Promise<AllowOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await api.profiles.rules.get(profileId).withResponse();
    if (current.data.allow.includes(domain)) return { added: false };
    try {
      const stored = await api.profiles.rules
        .replace(
          profileId,
          { ...current.data, allow: [...current.data.allow, domain] },
          { ifMatch: current.etag },
        )
        .withResponse();
      return { added: true, rules: stored.data, etag: stored.etag };
    } catch (error) {
      if (attempt === 0 && error instanceof ApiError && error.code === 'version_mismatch') continue;
      throw error;
    }
  }
}
