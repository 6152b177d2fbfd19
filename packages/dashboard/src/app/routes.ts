import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** Who may open a page. */
type Access = 'public' | 'signed-in' | 'operator';

/** One page of the dashboard: its path (wouter syntax, `:id` parameters), the page module, who may open it. */
export interface AppRoute {
  path: string;
  /** The page module's default export, loaded when first opened (each page is its own chunk). */
  page: LazyExoticComponent<ComponentType>;
  access: Access;
  /** The document title while the page is open. */
  title: string;
  /** `cards`: the page's sections are laid out as cards, two columns where the screen allows (styles.css). */
  layout?: 'cards';
}

/**
 * Every page of the dashboard, one module per area named after the API's resources (src/pages/<area>/). The
 * emailed links of spec 5.5 land on /verify-email, /reset-password, /login and /account/security. Add a page
 * here and, when it belongs in the main navigation, in navigation.ts.
 */
export const ROUTES: readonly AppRoute[] = [
  {
    path: '/login',
    page: lazy(() => import('../pages/account/sign-in.page.js')),
    access: 'public',
    title: 'Sign in',
  },
  {
    path: '/signup',
    page: lazy(() => import('../pages/account/sign-up.page.js')),
    access: 'public',
    title: 'Create an account',
  },
  {
    path: '/verify-email',
    page: lazy(() => import('../pages/account/verify-email.page.js')),
    access: 'public',
    title: 'Verify your email address',
  },
  {
    path: '/reset-password',
    page: lazy(() => import('../pages/account/reset-password.page.js')),
    access: 'public',
    title: 'Reset your password',
  },
  {
    path: '/recover-account',
    page: lazy(() => import('../pages/account/recover-account.page.js')),
    access: 'public',
    title: 'Recover your account',
  },
  {
    path: '/waitlist/confirm',
    page: lazy(() => import('../pages/account/waitlist-confirm.page.js')),
    access: 'public',
    title: 'Your place on the waitlist',
  },
  {
    path: '/account',
    page: lazy(() => import('../pages/account/account.page.js')),
    access: 'signed-in',
    title: 'Your account',
    layout: 'cards',
  },
  {
    path: '/account/security',
    page: lazy(() => import('../pages/account/security.page.js')),
    access: 'signed-in',
    title: 'Sign-in and security',
    layout: 'cards',
  },
  {
    path: '/account/members',
    page: lazy(() => import('../pages/account/members.page.js')),
    access: 'signed-in',
    title: 'Members',
  },
  {
    path: '/invitations/accept',
    page: lazy(() => import('../pages/account/accept-invitation.page.js')),
    access: 'signed-in',
    title: 'Join an organisation',
  },
  {
    path: '/account/tokens',
    page: lazy(() => import('../pages/account/tokens.page.js')),
    access: 'signed-in',
    title: 'API tokens',
  },
  {
    path: '/account/audit',
    page: lazy(() => import('../pages/account/audit.page.js')),
    access: 'signed-in',
    title: 'Audit log',
  },
  {
    path: '/profiles',
    page: lazy(() => import('../pages/profiles/profiles.page.js')),
    access: 'signed-in',
    title: 'Profiles',
  },
  {
    path: '/profiles/:id',
    page: lazy(() => import('../pages/profiles/profile-overview.page.js')),
    access: 'signed-in',
    title: 'Profile',
    layout: 'cards',
  },
  {
    path: '/profiles/:id/security',
    page: lazy(() => import('../pages/profiles/security.page.js')),
    access: 'signed-in',
    title: 'Security',
  },
  {
    path: '/profiles/:id/parental',
    page: lazy(() => import('../pages/profiles/parental.page.js')),
    access: 'signed-in',
    title: 'Parental controls',
  },
  {
    path: '/profiles/:id/settings',
    page: lazy(() => import('../pages/profiles/settings.page.js')),
    access: 'signed-in',
    title: 'Profile settings',
  },
  {
    path: '/profiles/:id/rules',
    page: lazy(() => import('../pages/profiles/rules.page.js')),
    access: 'signed-in',
    title: 'Rules',
  },
  {
    path: '/profiles/:id/blocklists',
    page: lazy(() => import('../pages/profiles/blocklists.page.js')),
    access: 'signed-in',
    title: 'Blocklists',
  },
  {
    path: '/profiles/:id/schedules',
    page: lazy(() => import('../pages/profiles/schedules.page.js')),
    access: 'signed-in',
    title: 'Schedules',
  },
  {
    path: '/profiles/:id/linked-ips',
    page: lazy(() => import('../pages/profiles/linked-ips.page.js')),
    access: 'signed-in',
    title: 'Linked IPs',
  },
  {
    path: '/profiles/:id/devices',
    page: lazy(() => import('../pages/profiles/devices.page.js')),
    access: 'signed-in',
    title: 'Devices',
  },
  {
    path: '/profiles/:id/logs',
    page: lazy(() => import('../pages/logs/logs.page.js')),
    access: 'signed-in',
    title: 'Logs',
  },
  {
    path: '/profiles/:id/analytics',
    page: lazy(() => import('../pages/analytics/analytics.page.js')),
    access: 'signed-in',
    title: 'Analytics',
  },
  {
    path: '/profiles/:id/nodes',
    page: lazy(() => import('../pages/nodes/nodes.page.js')),
    access: 'signed-in',
    title: 'Nodes',
  },
  {
    path: '/operator',
    page: lazy(() => import('../pages/operator/list-reports.page.js')),
    access: 'operator',
    title: 'List reports',
  },
  {
    path: '/operator/blocks',
    page: lazy(() => import('../pages/operator/operator-blocks.page.js')),
    access: 'operator',
    title: 'Operator blocks',
  },
  {
    path: '/operator/source-blocks',
    page: lazy(() => import('../pages/operator/source-blocks.page.js')),
    access: 'operator',
    title: 'Source blocks',
  },
  {
    path: '/operator/profiles',
    page: lazy(() => import('../pages/operator/profile-suspension.page.js')),
    access: 'operator',
    title: 'Profile suspension',
  },
  {
    path: '/operator/accounts',
    page: lazy(() => import('../pages/operator/accounts.page.js')),
    access: 'operator',
    title: 'Accounts',
  },
  {
    path: '/operator/audit',
    page: lazy(() => import('../pages/operator/audit.page.js')),
    access: 'operator',
    title: 'Audit log of every organisation',
  },
  {
    path: '/operator/feedback',
    page: lazy(() => import('../pages/operator/feedback.page.js')),
    access: 'operator',
    title: 'Feedback',
  },
  {
    path: '/operator/list-sources',
    page: lazy(() => import('../pages/operator/list-sources.page.js')),
    access: 'operator',
    title: 'List sources',
  },
  {
    path: '/operator/client-errors',
    page: lazy(() => import('../pages/operator/client-errors.page.js')),
    access: 'operator',
    title: 'Client errors',
  },
  {
    path: '/feedback',
    page: lazy(() => import('../pages/feedback/feedback.page.js')),
    access: 'signed-in',
    title: 'Send feedback',
  },
];
