import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/**
 * The emailed link `/invitations/accept?token=inv_…` (issue 39): signed in (the sign-in page brings the person
 * back here), it joins the organisation as soon as it opens, and the session acts in it from then on.
 */
export default function AcceptInvitationPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: (value: string) => api.org.invitations.accept(value),
    // The session now acts in another organisation: every cached answer was the previous one's.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  // The token is single use: send it once per page, also where React runs effects twice (development).
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || token.length === 0) return;
    sent.current = true;
    accept.mutate(token);
  }, [token, accept]);

  return (
    <div className="narrow">
      <h1>{t('members.accept.title')}</h1>
      {token.length === 0 ? (
        <p>{t('members.accept.noToken')}</p>
      ) : accept.isSuccess ? (
        <div role="status">
          <p>
            {t('members.accept.joined', {
              name: accept.data.name,
              role: t(`members.role.${accept.data.role}` as 'members.role.viewer'),
            })}
          </p>
          <p>
            <Link href="/profiles">{t('members.accept.continue')}</Link>
          </p>
        </div>
      ) : accept.isError ? (
        <ProblemDisplay problem={problemOf(accept.error)} />
      ) : (
        <p aria-busy="true">{t('members.accept.accepting')}</p>
      )}
    </div>
  );
}
