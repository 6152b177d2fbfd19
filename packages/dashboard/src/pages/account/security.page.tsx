import { useSearch } from 'wouter';
import { t } from '../../i18n/t.js';
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
      <h1>{t('account.security.title')}</h1>
      <AccountTabs />
      {recovered && (
        <p className="notice" role="status">
          {t('account.security.recovered')}
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
