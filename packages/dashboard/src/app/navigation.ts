/** One entry of the main navigation. */
export interface NavigationItem {
  href: string;
  label: string;
  /** Shown to operator accounts (`is_admin`) only. */
  operatorOnly?: boolean;
}

/** The main navigation of signed-in pages, in order. */
export const NAVIGATION: readonly NavigationItem[] = [
  { href: '/profiles', label: 'Profiles' },
  { href: '/account', label: 'Account' },
  { href: '/feedback', label: 'Feedback' },
  { href: '/operator', label: 'Operator', operatorOnly: true },
];
