import { useMutation } from '@tanstack/react-query';
import { Menu as MenuIcon, X } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client.js';
import { useAccount } from '../session/use-account.js';
import { NAVIGATION } from './navigation.js';
import './app-shell.css';

// The menu's library code loads once someone is signed in, keeping it out of the sign-in page's budget.
const AccountMenu = lazy(() =>
  import('./account-menu.js').then((module) => ({ default: module.AccountMenu })),
);

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
 * The main navigation: links with icons in the header; on a phone folded behind a Menu button (a disclosure:
 * the links stay in the page, shown when it is expanded) and folded again once a link is followed.
 */
function MainNavigation({ isAdmin }: { isAdmin: boolean }) {
  const [location] = useLocation();
  // The page the menu was unfolded on: it is open only there, so moving to another page folds it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location;
  return (
    <>
      <button
        type="button"
        className="nav-toggle"
        aria-expanded={open}
        aria-controls="main-navigation"
        onClick={() => setOpenOn(open ? null : location)}
      >
        {open ? <X aria-hidden="true" size={20} /> : <MenuIcon aria-hidden="true" size={20} />}
        Menu
      </button>
      <nav aria-label="Main" id="main-navigation" className={open ? 'main-nav open' : 'main-nav'}>
        <ul>
          {NAVIGATION.filter((item) => item.operatorOnly !== true || isAdmin).map((item) => {
            const Icon = item.icon;
            return (
              <li key={item.href}>
                <Link href={item.href} aria-current={location.startsWith(item.href) ? 'page' : undefined}>
                  <Icon aria-hidden="true" size={18} />
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}

/**
 * The frame of every page: a skip link, the header (with the main navigation and the account menu when signed
 * in), and the page in <main>.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const account = useAccount();
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
            <MainNavigation isAdmin={signedIn.is_admin} />
            <div className="account-menu">
              <Suspense fallback={<span className="account-email">{signedIn.email}</span>}>
                <AccountMenu email={signedIn.email} />
              </Suspense>
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
