import { Link, useLocation } from 'wouter';

const TABS = [
  { href: '/account', label: 'Overview' },
  { href: '/account/security', label: 'Sign-in and security' },
  { href: '/account/tokens', label: 'API tokens' },
  { href: '/account/audit', label: 'Audit log' },
] as const;

/** The account area's own navigation. */
export function AccountTabs() {
  const [location] = useLocation();
  return (
    <nav aria-label="Account" className="tabs">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
