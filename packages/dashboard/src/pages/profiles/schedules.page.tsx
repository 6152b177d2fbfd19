import type { Profile, Schedule, ScheduleWindow } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  schedulesMutations,
  schedulesQueries,
  type VersionedSchedules,
} from '../../api/schedules.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { formatWallTime, formatWeekday } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { BedtimeForm } from './bedtime-form.js';
import { LimitsAndLifts } from './limits-and-lifts.js';
import { ProfileFrame } from './profile-frame.js';
import { RunningAllowances } from './running-allowances.js';
import { isActiveAt, windowEnd } from './schedule-clock.js';
import { ScheduleForm } from './schedule-form.js';
import { useNow } from './use-now.js';

/** "Monday, Tuesday, 21:00 to 07:00 (ends the next day)" in the reader's language. */
function windowText(window: ScheduleWindow): string {
  const text = t('schedules.window', {
    days: window.days.map((day) => formatWeekday(day, 'short')).join(', '),
    start: formatWallTime(window.start),
    end: formatWallTime(window.end),
  });
  const ends = windowEnd(window.start, window.end);
  if (ends === 'same-day') return text;
  return `${text} (${ends === 'next-day' ? t('schedules.endsNextDay') : t('schedules.fullDay')})`;
}

/** One schedule: its times, whether it is active now in the profile's zone, and its Edit and Delete. */
function ScheduleItem({
  schedule,
  active,
  deleting,
  onEdit,
  onDelete,
}: {
  schedule: Schedule;
  active: boolean;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const titleId = `schedule-${schedule.name}`;
  return (
    <li aria-labelledby={titleId}>
      <span className="card-title" id={titleId}>
        {schedule.name}
      </span>{' '}
      <span className="badge">{active ? t('schedules.activeNow') : t('schedules.notActive')}</span>
      <ul>
        {schedule.windows.map((window) => (
          <li key={`${window.days.join()}-${window.start}-${window.end}`}>{windowText(window)}</li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" onClick={onEdit} aria-label={t('schedules.editOf', { name: schedule.name })}>
          {t('schedules.edit')}
        </button>
        <ConfirmedAction
          label={t('schedules.delete')}
          ariaLabel={t('schedules.deleteOf', { name: schedule.name })}
          confirmLabel={t('schedules.deleteConfirm')}
          warning={t('schedules.deleteWarning')}
          pending={deleting}
          onConfirm={onDelete}
        />
      </div>
    </li>
  );
}

/** What the page is doing with its form: nothing open, a new schedule, or editing the one at an index. */
type Editing = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; index: number };

function Schedules({ profile, current }: { profile: Profile; current: VersionedSchedules }) {
  const queryClient = useQueryClient();
  const zone = profile.settings.time_zone;
  const now = useNow();
  const [editing, setEditing] = useState<Editing>({ kind: 'closed' });
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const remove = useMutation(schedulesMutations.replace(queryClient, profile.id));
  const done = (message: string) => {
    setEditing({ kind: 'closed' });
    setOutcome(message);
  };
  const deleteAt = (index: number) => {
    const name = current.schedules[index]?.name ?? '';
    setOutcome(undefined);
    remove.mutate(
      { schedules: current.schedules.filter((_schedule, at) => at !== index), current },
      { onSuccess: () => done(t('schedules.deleted', { name })) },
    );
  };
  return (
    <>
      {outcome !== undefined && (
        <p className="notice" role="status">
          {outcome}
        </p>
      )}
      {remove.error !== null && <ProblemDisplay problem={problemOf(remove.error)} />}
      {current.schedules.length === 0 ? (
        <p>{t('schedules.none')}</p>
      ) : (
        <ul className="card-list" aria-label={t('schedules.list')}>
          {current.schedules.map((schedule, index) => (
            <ScheduleItem
              key={schedule.name}
              schedule={schedule}
              active={isActiveAt(schedule, zone, now)}
              deleting={remove.isPending}
              onEdit={() => {
                setOutcome(undefined);
                setEditing({ kind: 'edit', index });
              }}
              onDelete={() => deleteAt(index)}
            />
          ))}
        </ul>
      )}
      <section aria-labelledby="schedule-form-title">
        <h2 id="schedule-form-title">
          {editing.kind === 'edit'
            ? t('schedules.editing', { name: current.schedules[editing.index]?.name ?? '' })
            : t('schedules.create')}
        </h2>
        {editing.kind === 'closed' ? (
          <button
            type="button"
            onClick={() => {
              setOutcome(undefined);
              setEditing({ kind: 'new' });
            }}
          >
            {t('schedules.create')}
          </button>
        ) : (
          <>
            <ScheduleForm
              // A new form for each schedule edited, so that nothing typed for one shows for another.
              key={editing.kind === 'edit' ? `edit-${editing.index}` : 'new'}
              profileId={profile.id}
              current={current}
              index={editing.kind === 'edit' ? editing.index : undefined}
              onDone={(name) => done(t('schedules.saved', { name }))}
            />
            <button type="button" onClick={() => setEditing({ kind: 'closed' })}>
              {t('schedules.cancel')}
            </button>
          </>
        )}
      </section>
      {current.schedules.length > 0 && (
        <section aria-labelledby="bedtime-title">
          <h2 id="bedtime-title">{t('bedtime.title')}</h2>
          <BedtimeForm
            // Read afresh after each save, so the choice shown is the stored one.
            key={current.bedtime ?? ''}
            profileId={profile.id}
            current={current}
            onSaved={done}
          />
        </section>
      )}
      <LimitsAndLifts profileId={profile.id} current={current} onSaved={done} />
    </>
  );
}

function SchedulesOf({ profile }: { profile: Profile }) {
  const schedules = useQuery(schedulesQueries.of(profile.id));
  return (
    <>
      <p>{t('schedules.intro')}</p>
      <p className="hint">
        {t('schedules.zone', { zone: profile.settings.time_zone })}{' '}
        <Link href={`/profiles/${profile.id}/settings`}>{t('schedules.changeZone')}</Link>
      </p>
      {schedules.isPending ? (
        <p aria-busy="true">{t('schedules.loading')}</p>
      ) : schedules.isError ? (
        <ProblemDisplay problem={problemOf(schedules.error)} onRetry={() => void schedules.refetch()} />
      ) : (
        <Schedules profile={profile} current={schedules.data} />
      )}
      <RunningAllowances profileId={profile.id} />
    </>
  );
}

/** A profile's weekly schedules, read in its time zone, with what each is doing now. */
export default function SchedulesPage() {
  return (
    <ProfileFrame title={t('schedules.title')}>{(profile) => <SchedulesOf profile={profile} />}</ProfileFrame>
  );
}
