import type { ScheduleAssignment } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { schedulesMutations, type VersionedSchedules } from '../../api/schedules.queries.js';
import { useFieldId } from '../../forms/field-id.js';
import { describedBy, FieldNotes } from '../../forms/field-notes.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import type { ItemChoice, ItemKind } from './assignment-items.js';

const KINDS: readonly ItemKind[] = ['service', 'category', 'list', 'deny'];
const MODES: readonly ScheduleAssignment['mode'][] = ['only_during', 'lifted_during'];

/** A labelled select whose id is its API field's, so that the problem summary's link lands on it. */
function SelectField({
  name,
  label,
  error,
  value,
  onChange,
  children,
}: {
  name: string;
  label: string;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useFieldId()(name);
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      <FieldNotes id={id} label={label} error={error} />
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, undefined, error)}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}

/** The target the form's choices name. */
function targetOf(kind: ItemKind, item: string, pattern: string): ScheduleAssignment['target'] {
  if (kind === 'deny') return { kind, pattern: pattern.trim() };
  if (kind === 'list') return { kind, id: Number(item) };
  return { kind, id: item };
}

/** Adds one item to the limits and lifts: which item, which schedule, and whether it blocks during or except. */
export function LimitForm({
  profileId,
  current,
  choices,
  onAdded,
}: {
  profileId: string;
  current: VersionedSchedules;
  choices: Record<Exclude<ItemKind, 'deny'>, ItemChoice[]>;
  onAdded: (assignment: ScheduleAssignment) => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation(schedulesMutations.replace(queryClient, profileId));
  const [kind, setKind] = useState<ItemKind>('service');
  const [item, setItem] = useState('');
  const [pattern, setPattern] = useState('');
  const [schedule, setSchedule] = useState(current.schedules[0]?.name ?? '');
  const [mode, setMode] = useState<ScheduleAssignment['mode']>('only_during');
  const field = (path: string) => `assignments.${current.assignments.length}.${path}`;
  const problem = save.error === null ? null : problemOf(save.error);
  const errorOf = (path: string) => problem?.fieldErrors.find((each) => each.field === field(path))?.message;
  const options = kind === 'deny' ? [] : choices[kind];
  const chosenItem = item === '' ? (options[0]?.value ?? '') : item;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const assignment: ScheduleAssignment = { target: targetOf(kind, chosenItem, pattern), schedule, mode };
    save.mutate(
      {
        schedules: current.schedules,
        current,
        policy: { assignments: [...current.assignments, assignment] },
      },
      { onSuccess: () => onAdded(assignment) },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('limits.add')}>
      {problem !== null && (
        <ProblemDisplay
          problem={problem}
          fieldLabels={{
            [field('target.pattern')]: t('limits.pattern'),
            [field('target.id')]: t('limits.item'),
            [field('target')]: t('limits.item'),
            [field('schedule')]: t('limits.schedule'),
          }}
          focus
        />
      )}
      <SelectField
        name="kind"
        label={t('limits.kind')}
        error={undefined}
        value={kind}
        onChange={(value) => {
          setKind(KINDS.find((each) => each === value) ?? 'service');
          setItem('');
        }}
      >
        {KINDS.map((each) => (
          <option key={each} value={each}>
            {t(`limits.kind.${each}`)}
          </option>
        ))}
      </SelectField>
      {kind === 'deny' ? (
        <TextField
          name={field('target.pattern')}
          label={t('limits.pattern')}
          hint={t('limits.patternHint')}
          autoComplete="off"
          value={pattern}
          error={errorOf('target.pattern')}
          onChange={(event) => setPattern(event.target.value)}
        />
      ) : (
        <SelectField
          name={field('target.id')}
          label={t('limits.item')}
          error={errorOf('target.id') ?? errorOf('target')}
          value={chosenItem}
          onChange={setItem}
        >
          {options.map((each) => (
            <option key={each.value} value={each.value}>
              {each.label}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField
        name={field('schedule')}
        label={t('limits.schedule')}
        error={errorOf('schedule')}
        value={schedule}
        onChange={setSchedule}
      >
        {current.schedules.map((each) => (
          <option key={each.name} value={each.name}>
            {each.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        name={field('mode')}
        label={t('limits.mode')}
        error={errorOf('mode')}
        value={mode}
        onChange={(value) => setMode(MODES.find((each) => each === value) ?? 'only_during')}
      >
        {MODES.map((each) => (
          <option key={each} value={each}>
            {t(`limits.mode.${each}`)}
          </option>
        ))}
      </SelectField>
      <SubmitButton pending={save.isPending} busyText={t('limits.adding')}>
        {t('limits.add')}
      </SubmitButton>
    </form>
  );
}
