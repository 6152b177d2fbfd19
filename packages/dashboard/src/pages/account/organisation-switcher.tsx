import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { api } from '../../api/client.js';
import { membersQueries } from '../../api/members.queries.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/**
 * The organisation this session acts in, and a menu to act in another the account belongs to (ADR 0047).
 * Shown only to accounts of more than one organisation. Every cached answer belonged to the previous one, so
 * a switch drops them all.
 */
export function OrganisationSwitcher({ onSwitched }: { onSwitched?: () => void }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const id = useId();
  const organisations = useQuery(membersQueries.organisations());
  const switchTo = useMutation({
    mutationFn: (orgId: string) => api.auth.organisations.switchTo(orgId),
    onSuccess: (organisation) => {
      void queryClient.invalidateQueries();
      onSwitched?.();
      notify.success(t('members.switcher.switched', { name: organisation.name }));
    },
  });
  if (organisations.data === undefined || organisations.data.length < 2) return null;
  const current = organisations.data.find((organisation) => organisation.current);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = new FormData(event.currentTarget).get('org_id');
    if (typeof chosen === 'string' && chosen !== current?.org_id) switchTo.mutate(chosen);
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={t('members.switcher.label')}>
      {switchTo.isError && <ProblemDisplay problem={problemOf(switchTo.error)} />}
      <label htmlFor={id}>{t('members.switcher.label')}</label>
      <select id={id} name="org_id" defaultValue={current?.org_id} key={current?.org_id}>
        {organisations.data.map((organisation) => (
          <option key={organisation.org_id} value={organisation.org_id}>
            {organisation.name} ({t(`members.role.${organisation.role}` as 'members.role.viewer')})
          </option>
        ))}
      </select>
      <button type="submit" disabled={switchTo.isPending}>
        {t('members.switcher.submit')}
      </button>
    </form>
  );
}
