import { Link, useLocation } from 'wouter';
import { t } from '../../i18n/t.js';

const TABS = [
  { href: '/account', label: 'account.tabs.overview' },
  { href: '/account/security', label: 'account.tabs.security' },
  { href: '/account/tokens', label: 'account.tabs.tokens' },
  { href: '/account/members', label: 'account.tabs.members' },
  { href: '/account/audit', label: 'account.tabs.audit' },
] as const;

/** The account area's own navigation. */
export function AccountTabs() {
  const [location] = useLocation();
  return (
    <nav aria-label={t('account.tabs.navigation')} className="tabs">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
              {t(tab.label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
