import type { ScheduleRequest } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { schedulesMutations, type VersionedSchedules } from '../../api/schedules.queries.js';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { useFieldId } from '../../forms/field-id.js';
import { describedBy, FieldNotes } from '../../forms/field-notes.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { formatWallTime, formatWeekday } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { WEEKDAYS, type Weekday, windowEnd } from './schedule-clock.js';

/** One window as the form holds it while it is edited. */
interface WindowDraft {
  days: Weekday[];
  start: string;
  end: string;
}

const NEW_WINDOW: WindowDraft = { days: [], start: '', end: '' };

/** What the person sees of a window's end as they type it: the next day, or 24 hours. */
function EndNote({ start, end }: WindowDraft) {
  if (!/^\d{2}:\d{2}$/.test(start) || !/^\d{2}:\d{2}$/.test(end)) return null;
  const ends = windowEnd(start, end);
  if (ends === 'same-day') return null;
  return (
    <p className="notice" role="status">
      {ends === 'full-day'
        ? t('schedules.fullDayNote')
        : t('schedules.endsNextDayNote', { end: formatWallTime(end), start: formatWallTime(start) })}
    </p>
  );
}

/** The days of one window: a checkbox a day in a fieldset, the API's error on the group. */
function DaysField({
  name,
  days,
  error,
  onChange,
}: {
  name: string;
  days: readonly Weekday[];
  error: string | undefined;
  onChange: (days: Weekday[]) => void;
}) {
  const id = useFieldId()(name);
  return (
    <fieldset
      className={error === undefined ? 'field' : 'field field-invalid'}
      aria-describedby={describedBy(id, undefined, error)}
    >
      <legend>{t('schedules.days')}</legend>
      <FieldNotes id={id} label={t('schedules.days')} error={error} />
      {WEEKDAYS.map((day, index) => (
        <CheckboxField
          key={day}
          name={name}
          id={index === 0 ? id : `${id}-${day}`}
          label={formatWeekday(day)}
          value={day}
          checked={days.includes(day)}
          onChange={(event) =>
            onChange(
              event.target.checked
                ? WEEKDAYS.filter((each) => each === day || days.includes(each))
                : days.filter((each) => each !== day),
            )
          }
        />
      ))}
    </fieldset>
  );
}

/**
 * Creates a schedule, or edits the one at `index`: its name and its weekly times, each with its days and local
 * start and end, saying at once when a time ends the next day. The whole list is written in one PUT against
 * the version the page read; the API's 422 comes back at each field by its path (`schedules.2.windows.0.end`).
 */
export function ScheduleForm({
  profileId,
  current,
  index,
  onDone,
}: {
  profileId: string;
  current: VersionedSchedules;
  /** The schedule edited, or undefined for a new one (added at the end). */
  index: number | undefined;
  onDone: (name: string) => void;
}) {
  const queryClient = useQueryClient();
  const editing = index === undefined ? undefined : current.schedules[index];
  const [name, setName] = useState(editing?.name ?? '');
  const [windows, setWindows] = useState<WindowDraft[]>(
    editing?.windows.map((window) => ({ ...window, days: [...window.days] })) ?? [NEW_WINDOW],
  );
  const save = useMutation(schedulesMutations.replace(queryClient, profileId));
  const position = index ?? current.schedules.length;
  const field = (path: string) => `schedules.${position}.${path}`;
  const problem = save.error === null ? null : problemOf(save.error);
  const errorOf = (path: string) =>
    problem?.fieldErrors.find((error) => error.field === field(path))?.message;
  const change = (at: number, patch: Partial<WindowDraft>) =>
    setWindows((drafts) => drafts.map((draft, each) => (each === at ? { ...draft, ...patch } : draft)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const schedule: ScheduleRequest = { name: name.trim(), windows };
    const schedules =
      index === undefined
        ? [...current.schedules, schedule]
        : current.schedules.map((each, at) => (at === index ? schedule : each));
    save.mutate({ schedules, etag: current.etag }, { onSuccess: () => onDone(schedule.name) });
  };

  const heading =
    editing === undefined ? t('schedules.create') : t('schedules.editing', { name: editing.name });
  return (
    <form onSubmit={submit} noValidate aria-label={heading}>
      {problem !== null && (
        <ProblemDisplay
          problem={
            problem.code === 'version_mismatch'
              ? { ...problem, advice: t('common.changedElsewhere') }
              : problem
          }
          fieldLabels={{ [field('name')]: t('schedules.name') }}
          focus
        />
      )}
      <TextField
        name={field('name')}
        label={t('schedules.name')}
        hint={t('schedules.nameHint')}
        autoComplete="off"
        value={name}
        error={errorOf('name')}
        onChange={(event) => setName(event.target.value)}
      />
      {windows.map((window, at) => (
        <fieldset
          // Windows have no identity of their own; their place in the list is the API's too.
          // biome-ignore lint/suspicious/noArrayIndexKey: the index is the window's path in the request
          key={at}
          className="schedule-window"
        >
          <legend>{t('schedules.windowN', { n: at + 1 })}</legend>
          <DaysField
            name={field(`windows.${at}.days`)}
            days={window.days}
            error={errorOf(`windows.${at}.days`)}
            onChange={(days) => change(at, { days })}
          />
          <TextField
            type="time"
            name={field(`windows.${at}.start`)}
            label={t('schedules.start')}
            value={window.start}
            error={errorOf(`windows.${at}.start`)}
            onChange={(event) => change(at, { start: event.target.value })}
          />
          <TextField
            type="time"
            name={field(`windows.${at}.end`)}
            label={t('schedules.end')}
            hint={t('schedules.endHint')}
            value={window.end}
            error={errorOf(`windows.${at}.end`)}
            onChange={(event) => change(at, { end: event.target.value })}
          />
          <EndNote {...window} />
          {windows.length > 1 && (
            <button
              type="button"
              onClick={() => setWindows((drafts) => drafts.filter((_draft, each) => each !== at))}
            >
              {t('schedules.removeWindow', { n: at + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      <div className="actions">
        <button type="button" onClick={() => setWindows((drafts) => [...drafts, NEW_WINDOW])}>
          {t('schedules.addWindow')}
        </button>
        <SubmitButton pending={save.isPending} busyText={t('schedules.saving')}>
          {t('schedules.save')}
        </SubmitButton>
      </div>
    </form>
  );
}
