import { useSearch } from 'wouter';
import { AccountTabs } from './account-tabs.js';
import { PasskeysSection } from './passkeys-section.js';
import { PasswordSection } from './password-section.js';
import { RecoveryCodesSection } from './recovery-codes-section.js';
import { SessionsSection } from './sessions-section.js';
import { TotpSection } from './totp-section.js';

/** `/account/security` (the emailed link of security notices): every way to sign in, and the sessions. */
export default function SecurityPage() {
  const recovered = new URLSearchParams(useSearch()).get('recovered') !== null;
  return (
    <>
      <h1>Sign-in and security</h1>
      <AccountTabs />
      {recovered && (
        <p className="notice" role="status">
          You recovered your account. Set up an authenticator app or a passkey now: until you do, the rest of
          the dashboard stays locked.
        </p>
      )}
      <PasskeysSection />
      <TotpSection />
      <RecoveryCodesSection />
      <PasswordSection />
      <SessionsSection />
    </>
  );
}
