import type { TotpAuthenticator } from '@svc/domain';
import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 defaults every authenticator app supports (ROUTES.md: SHA-1, 6 digits, 30 s). */
const PERIOD_SECONDS = 30;
/** A code of the previous step is still accepted (clock drift and typing time); future codes never are. */
const TOLERANCE: [number, number] = [PERIOD_SECONDS, 0];

/** TOTP with otplib (audited @noble/@scure plugins). */
export class OtplibTotpAuthenticator implements TotpAuthenticator {
  generateSecret(): string {
    return generateSecret({ length: 20 });
  }

  uri(secret: string, label: string, issuer: string): string {
    return generateURI({ issuer, label, secret, algorithm: 'sha1', digits: 6, period: PERIOD_SECONDS });
  }

  async verify(secret: string, code: string, at: Date, afterStep: number | null): Promise<number | null> {
    if (!/^\d{6}$/.test(code)) return null;
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(at.getTime() / 1000),
      epochTolerance: TOLERANCE,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    if (!result.valid) return null;
    // The functional API types HOTP and TOTP results together; a TOTP result names its time step.
    return 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : null;
  }
}
