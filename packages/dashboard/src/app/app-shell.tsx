import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client.js';
import { ACCOUNT_QUERY_KEY, useAccount } from '../session/use-account.js';
import { NAVIGATION } from './navigation.js';

/** Signs out: ends the session, forgets every cached answer, and shows the sign-in page. */
function SignOutButton() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <button
      type="button"
      className="link-button"
      onClick={async () => {
        await api.auth.logout().catch(() => undefined);
        queryClient.clear();
        queryClient.setQueryData(ACCOUNT_QUERY_KEY, null);
        navigate('/login?signed_out=1');
      }}
    >
      Sign out
    </button>
  );
}

/** Until the address is verified, some actions are refused: say so, and offer a new link. */
function UnverifiedBanner({ email }: { email: string }) {
  const resend = useMutation({ mutationFn: () => api.auth.resendVerification(email) });
  return (
    <section className="notice warning" aria-label="Email verification">
      <p>
        Verify your email address: open the link we sent to <strong>{email}</strong>. Until then, tokens,
        passkeys, authenticator apps and nodes cannot be created.
      </p>
      {resend.isSuccess ? (
        <p role="status">A new link is on its way.</p>
      ) : (
        <button type="button" disabled={resend.isPending} onClick={() => resend.mutate()}>
          Send a new link
        </button>
      )}
    </section>
  );
}

/**
 * The frame of every page: a skip link, the header (with the main navigation and the account when signed in),
 * and the page in <main>.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const account = useAccount();
  const [location] = useLocation();
  const signedIn = account.data !== undefined && account.data !== null ? account.data : undefined;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="app-header">
        <Link href={signedIn === undefined ? '/login' : '/'} className="brand">
          svc
        </Link>
        {signedIn !== undefined && (
          <>
            <nav aria-label="Main">
              <ul>
                {NAVIGATION.filter((item) => item.operatorOnly !== true || signedIn.is_admin).map((item) => (
                  <li key={item.href}>
                    <Link href={item.href} aria-current={location.startsWith(item.href) ? 'page' : undefined}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="account-menu">
              <span className="account-email">{signedIn.email}</span>
              <SignOutButton />
            </div>
          </>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {signedIn !== undefined && signedIn.email_verified_at === null && (
          <UnverifiedBanner email={signedIn.email} />
        )}
        {children}
      </main>
    </>
  );
}
