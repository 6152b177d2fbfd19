import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { schedulesMutations, type VersionedSchedules } from '../../api/schedules.queries.js';
import { useFieldId } from '../../forms/field-id.js';
import { describedBy, FieldNotes } from '../../forms/field-notes.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/**
 * The profile's bedtime (issue 38): none, or one of its schedules, during which everything but the allow rules
 * is blocked. Saved with the schedules and assignments as they were read, in one write.
 */
export function BedtimeForm({
  profileId,
  current,
  onSaved,
}: {
  profileId: string;
  current: VersionedSchedules;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation(schedulesMutations.replace(queryClient, profileId));
  const [bedtime, setBedtime] = useState(current.bedtime ?? '');
  const id = useFieldId()('bedtime');
  const problem = save.error === null ? null : problemOf(save.error);
  const error = problem?.fieldErrors.find((each) => each.field === 'bedtime')?.message;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = bedtime === '' ? null : bedtime;
    save.mutate(
      { schedules: current.schedules, current, policy: { bedtime: chosen } },
      {
        onSuccess: () =>
          onSaved(chosen === null ? t('bedtime.cleared') : t('bedtime.saved', { name: chosen })),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('bedtime.title')}>
      {problem !== null && (
        <ProblemDisplay
          problem={
            problem.code === 'version_mismatch'
              ? { ...problem, advice: t('common.changedElsewhere') }
              : problem
          }
          fieldLabels={{ bedtime: t('bedtime.label') }}
        />
      )}
      <div className={error === undefined ? 'field' : 'field field-invalid'}>
        <label htmlFor={id}>{t('bedtime.label')}</label>
        <FieldNotes id={id} label={t('bedtime.label')} hint={t('bedtime.hint')} error={error} />
        <select
          id={id}
          aria-describedby={describedBy(id, t('bedtime.hint'), error)}
          value={bedtime}
          aria-invalid={error === undefined ? undefined : true}
          onChange={(event) => setBedtime(event.target.value)}
        >
          <option value="">{t('bedtime.none')}</option>
          {current.schedules.map((schedule) => (
            <option key={schedule.name} value={schedule.name}>
              {schedule.name}
            </option>
          ))}
        </select>
      </div>
      <SubmitButton pending={save.isPending} busyText={t('schedules.saving')}>
        {t('bedtime.save')}
      </SubmitButton>
    </form>
  );
}
