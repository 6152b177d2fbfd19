import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { identityApiTokens } from './identity.api-tokens.js';
import { useIdentityFixture } from './identity.fixture.js';
import { identityPasswords } from './identity.passwords.js';
import { identitySessions } from './identity.sessions.js';
import { identitySignup } from './identity.signup.js';
import { identitySignupModes } from './identity.signup-modes.js';

/** Drives the identity surface through HTTP: everything a person needs to get and use a credential. */
export function runIdentitySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `identity through HTTP on ${storage} (spec 4.8, 4.9, 5.1–5.3)`,
    () => {
      const fx = useIdentityFixture(storage);
      identitySignup(fx);
      identitySessions(fx);
      identityPasswords(fx);
      identityApiTokens(fx);
      identitySignupModes(fx);
    },
  );
}
