import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { accountKeys } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ResendVerification } from './resend-verification.js';

/** The emailed link `/verify-email?token=ver_…` (spec 4.8): verifies the address as soon as it opens. */
export default function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const queryClient = useQueryClient();
  // A first verification ends the sessions made before it: whoever was signed in signs in again.
  const verify = useMutation({
    mutationFn: (value: string) => api.auth.verify(value),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
  });
  // The token is single use: send it once per page, also where React runs effects twice (development).
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || token.length === 0) return;
    sent.current = true;
    verify.mutate(token);
  }, [token, verify]);

  return (
    <div className="narrow">
      <h1>{t('account.verify.title')}</h1>
      {token.length === 0 ? (
        <>
          <p>{t('account.verify.noToken')}</p>
          <ResendVerification />
        </>
      ) : verify.isSuccess ? (
        <div role="status">
          <p>{t('account.verify.verified', { email: verify.data.email })}</p>
          <p>
            <Link href="/login">{t('account.verify.continue')}</Link>
          </p>
        </div>
      ) : verify.isError ? (
        <>
          <ProblemDisplay problem={problemOf(verify.error)} />
          {verify.error !== null && problemOf(verify.error).code === 'token_used' ? (
            <p>
              <Link href="/login">{t('account.verify.signIn')}</Link>
            </p>
          ) : (
            <ResendVerification />
          )}
        </>
      ) : (
        <p aria-busy="true">{t('account.verify.verifying')}</p>
      )}
    </div>
  );
}
