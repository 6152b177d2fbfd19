import type { Profile } from '@svc/sdk';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { type MessageKey, t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { PausedBadge } from './paused-badge.js';
import { useProfile, useProfileId } from './use-profile.js';

/** The sections of a profile, in the order of its navigation. */
const SECTIONS: readonly { path: string; label: MessageKey & `profiles.tab.${string}` }[] = [
  { path: '', label: 'profiles.tab.overview' },
  { path: '/security', label: 'profiles.tab.security' },
  { path: '/parental', label: 'profiles.tab.parental' },
  { path: '/settings', label: 'profiles.tab.settings' },
  { path: '/schedules', label: 'profiles.tab.schedules' },
  { path: '/rules', label: 'profiles.tab.rules' },
  { path: '/blocklists', label: 'profiles.tab.blocklists' },
  { path: '/linked-ips', label: 'profiles.tab.linkedIps' },
  { path: '/devices', label: 'profiles.tab.devices' },
  { path: '/logs', label: 'profiles.tab.logs' },
  { path: '/analytics', label: 'profiles.tab.analytics' },
  { path: '/nodes', label: 'profiles.tab.nodes' },
];

/** The profile's own navigation: one link per section, the open one marked as the current page. */
function ProfileNavigation({ id }: { id: string }) {
  const [location] = useLocation();
  const base = `/profiles/${id}`;
  return (
    <nav className="tabs" aria-label={t('profiles.frame.navigation')}>
      <ul>
        {SECTIONS.map((section) => {
          const href = `${base}${section.path}`;
          return (
            <li key={section.path}>
              <Link href={href} aria-current={location === href ? 'page' : undefined}>
                {t(section.label)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The frame of every page of one profile: which profile it is, its navigation, the suspension notice, and the
 * page once the profile has loaded (or the problem if it cannot be read: another organisation's is 404).
 */
export function ProfileFrame({
  title,
  children,
}: {
  /** The section's heading; the overview passes undefined and shows the profile's name instead. */
  title: string | undefined;
  children: (profile: Profile) => ReactNode;
}) {
  const id = useProfileId();
  const profile = useProfile(id);
  if (profile.isPending) return <p aria-busy="true">{t('profiles.frame.loading')}</p>;
  if (profile.isError)
    return (
      <>
        <h1>{title ?? t('profiles.frame.profile')}</h1>
        <ProblemDisplay problem={problemOf(profile.error)} onRetry={() => void profile.refetch()}>
          <Link href="/profiles">{t('profiles.frame.allProfiles')}</Link>
        </ProblemDisplay>
      </>
    );
  return (
    <>
      <p className="caption">
        <Link href="/profiles">{t('profiles.frame.profiles')}</Link> › {profile.data.name}{' '}
        <code>{profile.data.id}</code>
      </p>
      {/* The badge sits beside the heading, not in it, so the heading's name stays the page's title. */}
      <div className="title-row">
        <h1>{title ?? profile.data.name}</h1>
        <PausedBadge profile={profile.data} />
      </div>
      <ProfileNavigation id={id} />
      {profile.data.suspended && (
        <div className="warning" role="note">
          <p>
            <strong>{t('profiles.frame.suspended')}</strong> {t('profiles.frame.suspendedDetail')}
          </p>
        </div>
      )}
      {children(profile.data)}
    </>
  );
}
