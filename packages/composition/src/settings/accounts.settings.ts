import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { commaList, type Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const accountVariables = {
  SVC_SIGNUP_MODE: z.enum(['open', 'invite', 'closed']).optional().register(settingDocs, {
    defaultText: '`open` in development, `closed` in production',
    description: '`open`, `invite` or `closed`',
  }),
  SVC_SIGNUP_ALLOWLIST: commaList
    .transform((entries) => entries.map((entry) => entry.toLowerCase()))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(@?[a-z0-9.-]+\.[a-z]{2,}|[^@\s]+@[a-z0-9.-]+\.[a-z]{2,})$/,
            'must list addresses or domains',
          ),
      ),
    )
    .optional()
    .register(settingDocs, {
      description:
        'comma-separated addresses (`a@example.com`) and whole domains (`example.com`) that may sign up in `invite` mode without a code',
    }),
  SVC_DELETION_COOLING_OFF_DAYS: z.coerce.number().int().min(1).max(365).default(14).register(settingDocs, {
    description:
      'days between an account deletion request and its erasure (1–365); the owner can undelete until then',
  }),
};

/** Who may sign up, and how long a deleted account may still be undeleted. */
export interface AccountSettings {
  signupMode: 'open' | 'invite' | 'closed';
  /** Addresses and domains that may sign up in invite mode without a code. */
  signupAllowlist: string[];
  /** Days between an account deletion request and its erasure (the owner can undelete until then). */
  deletionCoolingOffDays: number;
}

/** The accounts section; signup is open in development and closed in production unless set. */
export function accountSettings(raw: Parsed<typeof accountVariables>, development: boolean): AccountSettings {
  return {
    signupMode: raw.SVC_SIGNUP_MODE ?? (development ? 'open' : 'closed'),
    signupAllowlist: raw.SVC_SIGNUP_ALLOWLIST ?? [],
    deletionCoolingOffDays: raw.SVC_DELETION_COOLING_OFF_DAYS,
  };
}
