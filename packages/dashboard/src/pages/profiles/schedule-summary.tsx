import type { Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { schedulesQueries } from '../../api/schedules.queries.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { isActiveAt } from './schedule-clock.js';
import { useNow } from './use-now.js';

/** The overview's word on schedules: which are active now in the profile's zone, and where to change them. */
export function ScheduleSummary({ profile }: { profile: Profile }) {
  const schedules = useQuery(schedulesQueries.of(profile.id));
  const now = useNow();
  const zone = profile.settings.time_zone;
  const active =
    schedules.data?.schedules
      .filter((schedule) => isActiveAt(schedule, zone, now))
      .map((each) => each.name) ?? [];
  return (
    <section aria-labelledby="schedule-summary">
      <h2 id="schedule-summary">{t('schedules.title')}</h2>
      {schedules.isPending ? (
        <p aria-busy="true">{t('schedules.loading')}</p>
      ) : schedules.isError ? (
        <ProblemDisplay problem={problemOf(schedules.error)} onRetry={() => void schedules.refetch()} />
      ) : schedules.data.schedules.length === 0 ? (
        <p>{t('schedules.none')}</p>
      ) : (
        <p>
          {active.length === 0
            ? t('schedules.noneActive', { zone })
            : t('schedules.activeList', { names: active.join(', '), zone })}
        </p>
      )}
      <p>
        <Link href={`/profiles/${profile.id}/schedules`}>{t('schedules.manage')}</Link>
      </p>
    </section>
  );
}
