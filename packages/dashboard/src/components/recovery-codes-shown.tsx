import { t } from '../i18n/t.js';
import { CopyButton } from './copy-button.js';

/** Recovery codes, shown once: the list, a copy button, and what they are for. */
export function RecoveryCodesShown({ codes }: { codes: readonly string[] }) {
  return (
    <section className="notice" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">{t('account.recoveryCodes.shownTitle')}</h3>
      <p>{t('account.recoveryCodes.shownAdvice')}</p>
      <ul className="codes" aria-label={t('account.recoveryCodes.list')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label={t('account.recoveryCodes.copy')} />
    </section>
  );
}
