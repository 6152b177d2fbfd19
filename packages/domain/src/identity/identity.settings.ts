/** Deployment choices the identity use cases depend on, parsed by the runner from its settings. */
export interface IdentitySettings {
  /** `development` relaxes the operator sign-in strength (spec 5.4). */
  env: 'development' | 'production';
  signupMode: 'open' | 'invite' | 'closed';
  /** Exact addresses and whole domains (`example.com`) that may sign up in invite mode without a code. */
  signupAllowlist: readonly string[];
  /** `{dashboard_url}` of emailed links, without a trailing slash. */
  dashboardUrl: string;
}

/** Lifetimes and limits of spec section 8, in milliseconds where they are durations. */
export const IdentityLimits = {
  verificationTtlMs: 24 * 3_600_000,
  resetTtlMs: 3_600_000,
  recoveryTtlMs: 3_600_000,
  waitlistTtlMs: 7 * 24 * 3_600_000,
  accountExistsMailEveryMs: 60_000,
  sessionLifetimeMs: 30 * 24 * 3_600_000,
  sessionIdleMs: 7 * 24 * 3_600_000,
  sessionRenewAfterMs: 24 * 3_600_000,
  /** How long a renewed session's previous token keeps working ("a few seconds"). */
  sessionPreviousTokenGraceMs: 30_000,
  /** last_used_at is written at most this often per session or token. */
  touchEveryMs: 60_000,
  stepUpWindowMs: 5 * 60_000,
} as const;

/** Attempt limits enforced through the AttemptLimiter port. */
export const AttemptLimits = {
  /** One a minute per address with a burst of three (spec section 8). */
  resetPerAddress: { name: 'reset-address', points: 3, perSeconds: 180 },
  resetPerIp: { name: 'reset-ip', points: 20, perSeconds: 3_600 },
  resendPerAddress: { name: 'resend-address', points: 3, perSeconds: 180 },
  passwordChangePerAccount: { name: 'password-change', points: 10, perSeconds: 900 },
  recoveryPerAddress: { name: 'recovery-address', points: 3, perSeconds: 180 },
  recoveryConfirmPerToken: { name: 'recovery-confirm', points: 5, perSeconds: 3_600 },
  secondFactorPerAccount: { name: 'second-factor', points: 10, perSeconds: 300 },
} as const;

/** True when `email` is on the invite-mode allowlist, by exact address or by its whole domain. */
export function isAllowlisted(email: string, allowlist: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return allowlist.some((entry) => {
    const rule = entry.trim().toLowerCase();
    return rule.includes('@') && !rule.startsWith('@') ? rule === email : rule.replace(/^@/, '') === domain;
  });
}
