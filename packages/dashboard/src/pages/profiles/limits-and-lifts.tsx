import type { ScheduleAssignment } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { schedulesMutations, type VersionedSchedules } from '../../api/schedules.queries.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { itemText, modeText, useItemChoices } from './assignment-items.js';
import { LimitForm } from './limit-form.js';

/**
 * "Limits and lifts" (issue 38): the items a schedule scopes (a service, category, blocklist or deny rule,
 * blocked only during it or except during it), with Remove, and a form to add one. Every change is one write
 * of the schedules as read, with the bedtime carried over.
 */
export function LimitsAndLifts({
  profileId,
  current,
  onSaved,
}: {
  profileId: string;
  current: VersionedSchedules;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const choices = useItemChoices();
  const remove = useMutation(schedulesMutations.replace(queryClient, profileId));
  const [adding, setAdding] = useState(false);
  const removeAt = (index: number, item: string) =>
    remove.mutate(
      {
        schedules: current.schedules,
        current,
        policy: { assignments: current.assignments.filter((_each, at) => at !== index) },
      },
      { onSuccess: () => onSaved(t('limits.removed', { item })) },
    );
  const describe = (assignment: ScheduleAssignment) => itemText(assignment.target, choices);
  return (
    <section aria-labelledby="limits-title">
      <h2 id="limits-title">{t('limits.title')}</h2>
      <p className="hint">{t('limits.intro')}</p>
      {remove.error !== null && <ProblemDisplay problem={problemOf(remove.error)} />}
      {current.assignments.length === 0 ? (
        <p>{t('limits.none')}</p>
      ) : (
        <ul aria-label={t('limits.list')}>
          {current.assignments.map((assignment, index) => {
            const item = describe(assignment);
            return (
              <li key={`${item}-${assignment.schedule}`}>
                {item}: {modeText(assignment)}{' '}
                <button
                  type="button"
                  disabled={remove.isPending}
                  aria-label={t('limits.removeOf', { item })}
                  onClick={() => removeAt(index, item)}
                >
                  {t('limits.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {current.schedules.length === 0 ? (
        <p className="hint">{t('limits.needSchedule')}</p>
      ) : adding ? (
        <>
          <LimitForm
            profileId={profileId}
            current={current}
            choices={choices}
            onAdded={(assignment) => {
              setAdding(false);
              onSaved(t('limits.added', { item: describe(assignment) }));
            }}
          />
          <button type="button" onClick={() => setAdding(false)}>
            {t('common.cancel')}
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          {t('limits.add')}
        </button>
      )}
    </section>
  );
}
