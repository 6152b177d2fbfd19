import { describe } from 'vitest';
import { useSdkIdentityApp } from './sdk-identity/sdk-identity.fixture.js';
import {
  sdkIdentityOfOtherSettings,
  sdkPasswordsAndTokens,
} from './sdk-identity/sdk-identity.passwords-and-tokens.js';
import { sdkSignInAndSessions } from './sdk-identity/sdk-identity.sign-in.js';

// One behaviour a module under sdk-identity/, on one server for the file.
describe('SDK identity surface against the real server (spec 4.8, 4.9, 5.1–5.3)', () => {
  const fx = useSdkIdentityApp();
  sdkSignInAndSessions(fx);
  sdkPasswordsAndTokens(fx);
});

sdkIdentityOfOtherSettings();
