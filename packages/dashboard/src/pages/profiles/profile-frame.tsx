import type { Profile } from '@svc/sdk';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useProfile, useProfileId } from './use-profile.js';

/** The sections of a profile, in the order of its navigation. */
const SECTIONS: readonly { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/security', label: 'Security' },
  { path: '/parental', label: 'Parental' },
  { path: '/settings', label: 'Settings' },
  { path: '/rules', label: 'Rules' },
  { path: '/blocklists', label: 'Blocklists' },
  { path: '/linked-ips', label: 'Linked IPs' },
  { path: '/devices', label: 'Devices' },
  { path: '/logs', label: 'Logs' },
  { path: '/analytics', label: 'Analytics' },
  { path: '/nodes', label: 'Nodes' },
];

/** The profile's own navigation: one link per section, the open one marked as the current page. */
function ProfileNavigation({ id }: { id: string }) {
  const [location] = useLocation();
  const base = `/profiles/${id}`;
  return (
    <nav className="tabs" aria-label="Profile">
      <ul>
        {SECTIONS.map((section) => {
          const href = `${base}${section.path}`;
          return (
            <li key={section.path}>
              <Link href={href} aria-current={location === href ? 'page' : undefined}>
                {section.label}
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
  if (profile.isPending) return <p aria-busy="true">Loading the profile…</p>;
  if (profile.isError)
    return (
      <>
        <h1>{title ?? 'Profile'}</h1>
        <ProblemDisplay problem={problemOf(profile.error)} onRetry={() => void profile.refetch()}>
          <Link href="/profiles">All profiles</Link>
        </ProblemDisplay>
      </>
    );
  return (
    <>
      <p className="caption">
        <Link href="/profiles">Profiles</Link> › {profile.data.name} <code>{profile.data.id}</code>
      </p>
      <h1>{title ?? profile.data.name}</h1>
      <ProfileNavigation id={id} />
      {profile.data.suspended && (
        <div className="warning" role="note">
          <p>
            <strong>An operator suspended this profile.</strong> It resolves without filtering, rules, lists
            or logging, and refuses changes until it is reinstated. You can still read it.
          </p>
        </div>
      )}
      {children(profile.data)}
    </>
  );
}
