import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { type MessageKey, t } from '../../i18n/t.js';

/** The operator area's sections, in the order of its navigation. */
const SECTIONS: readonly { href: string; label: MessageKey }[] = [
  { href: '/operator', label: 'operator.section.listReports' },
  { href: '/operator/list-sources', label: 'operator.section.listSources' },
  { href: '/operator/blocks', label: 'operator.section.blocks' },
  { href: '/operator/source-blocks', label: 'operator.section.sourceBlocks' },
  { href: '/operator/profiles', label: 'operator.section.profiles' },
  { href: '/operator/accounts', label: 'operator.section.accounts' },
  { href: '/operator/audit', label: 'operator.section.audit' },
  { href: '/operator/feedback', label: 'operator.section.feedback' },
  { href: '/operator/client-errors', label: 'operator.section.clientErrors' },
];

/** The frame of every operator page: its heading and the operator area's navigation. */
export function OperatorFrame({ title, children }: { title: string; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <>
      <p className="caption">{t('operator.caption')}</p>
      <h1>{title}</h1>
      <nav className="tabs" aria-label={t('operator.navigation')}>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.href}>
              <Link href={section.href} aria-current={location === section.href ? 'page' : undefined}>
                {t(section.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </>
  );
}
