import { type LucideIcon, MessageSquare, Shield, UserRound, Wrench } from 'lucide-react';

/** One entry of the main navigation. */
export interface NavigationItem {
  href: string;
  label: string;
  /** Shown before the label (decorative: the label names the link). */
  icon: LucideIcon;
  /** Shown to operator accounts (`is_admin`) only. */
  operatorOnly?: boolean;
}

/** The main navigation of signed-in pages, in order. */
export const NAVIGATION: readonly NavigationItem[] = [
  { href: '/profiles', label: 'Profiles', icon: Shield },
  { href: '/account', label: 'Account', icon: UserRound },
  { href: '/feedback', label: 'Feedback', icon: MessageSquare },
  { href: '/operator', label: 'Operator', icon: Wrench, operatorOnly: true },
];
