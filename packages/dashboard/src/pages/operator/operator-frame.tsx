import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

/** The operator area's sections, in the order of its navigation. */
const SECTIONS: readonly { href: string; label: string }[] = [
  { href: '/operator', label: 'List reports' },
  { href: '/operator/list-sources', label: 'List sources' },
  { href: '/operator/blocks', label: 'Operator blocks' },
  { href: '/operator/source-blocks', label: 'Source blocks' },
  { href: '/operator/profiles', label: 'Profiles' },
  { href: '/operator/accounts', label: 'Accounts' },
  { href: '/operator/audit', label: 'Audit log' },
  { href: '/operator/feedback', label: 'Feedback' },
  { href: '/operator/client-errors', label: 'Client errors' },
];

/** The frame of every operator page: its heading and the operator area's navigation. */
export function OperatorFrame({ title, children }: { title: string; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <>
      <p className="caption">Operator</p>
      <h1>{title}</h1>
      <nav className="tabs" aria-label="Operator">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.href}>
              <Link href={section.href} aria-current={location === section.href ? 'page' : undefined}>
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </>
  );
}
