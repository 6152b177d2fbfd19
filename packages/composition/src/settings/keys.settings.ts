import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import type { Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const keyVariables = {
  SVC_SECRET: z.string().min(32, 'must be at least 32 characters').optional().register(settingDocs, {
    defaultText: 'generated in development',
    description:
      'key material for cursors, token hashes and DDNS tokens; at least 32 characters; required in production',
  }),
  SVC_PROFILE_SIGNING_KEYS: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'generated in development',
    description:
      'Ed25519 PKCS#8 keys (PEM or base64 DER), comma-separated, signing node profile documents; the first signs, the rest stay announced',
  }),
};

/** Key material of the deployment. */
export interface KeySettings {
  /** Key material; undefined means "generate one and keep it in the data dir" (development only). */
  secret: string | undefined;
  /**
   * Ed25519 PKCS#8 keys signing node profile documents, comma-separated (PEM or base64 DER), the first signing;
   * undefined means a development key kept in the data dir, or no signing in production.
   */
  profileSigningKeys: string | undefined;
}

export function keySettings(raw: Parsed<typeof keyVariables>): KeySettings {
  return { secret: raw.SVC_SECRET, profileSigningKeys: raw.SVC_PROFILE_SIGNING_KEYS };
}
