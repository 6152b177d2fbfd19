import type { Profile } from '@svc/sdk';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';

/** The pause's end, when one is running now (the API answers null once it passed; the page may be older). */
export function runningPause(profile: Pick<Profile, 'paused_until'>): string | null {
  const until = profile.paused_until;
  return until !== null && Date.parse(until) > Date.now() ? until : null;
}

/**
 * "Paused until 21:05" beside a profile's name (the list, the profile's header) while its filtering is paused,
 * the end in the reader's time zone. It goes by itself when the pause ends, without waiting for a new read.
 */
export function PausedBadge({ profile }: { profile: Pick<Profile, 'paused_until'> }) {
  const until = runningPause(profile);
  const [, setEnded] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const timer = setTimeout(() => setEnded((count) => count + 1), Date.parse(until) - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [until]);
  if (until === null) return null;
  return (
    <strong className="badge badge-paused">
      {t('profiles.paused.badge')}{' '}
      <time dateTime={until}>{t('profiles.paused.until', { until: formatDateTime(until) })}</time>
    </strong>
  );
}
