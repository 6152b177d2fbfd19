import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { t } from '../i18n/t.js';
import { ProblemDisplay } from '../problems/problem-display.js';
import { problemOf } from '../problems/problem-of.js';
import { useAccount } from './use-account.js';

/** The sign-in page's address that comes back to the current page afterwards. */
function signInUrlReturningHere(): string {
  return `/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`;
}

/** Shows `children` to a signed-in visitor; sends anyone else to the sign-in page, which brings them back. */
export function SignedInOnly({ children, adminOnly = false }: { children: ReactNode; adminOnly?: boolean }) {
  const account = useAccount();
  if (account.isPending) return <p aria-busy="true">{t('common.loading')}</p>;
  if (account.isError)
    return <ProblemDisplay problem={problemOf(account.error)} onRetry={() => void account.refetch()} />;
  if (account.data === null) return <Redirect to={signInUrlReturningHere()} replace />;
  if (adminOnly && !account.data.is_admin)
    return (
      <ProblemDisplay
        problem={{
          ...problemOf(null),
          status: 403,
          code: 'insufficient_scope',
          title: t('problems.operatorsOnly'),
          advice: t('problems.operatorsOnlyAdvice'),
          detail: undefined,
        }}
      />
    );
  return children;
}
