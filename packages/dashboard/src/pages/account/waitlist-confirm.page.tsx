import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** The emailed waitlist link `/waitlist/confirm?token=…`: confirms the place on the waitlist. */
export default function WaitlistConfirmPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const confirm = useMutation({ mutationFn: (value: string) => api.waitlist.confirm(value) });
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || token.length === 0) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);
  return (
    <div className="narrow">
      <h1>{t('account.waitlist.confirmTitle')}</h1>
      {token.length === 0 ? (
        <p>{t('account.waitlist.noToken')}</p>
      ) : confirm.isSuccess ? (
        <p role="status">{t('account.waitlist.confirmed', { email: confirm.data.email })}</p>
      ) : confirm.isError ? (
        <ProblemDisplay problem={problemOf(confirm.error)} />
      ) : (
        <p aria-busy="true">{t('account.waitlist.confirming')}</p>
      )}
    </div>
  );
}
