import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { accountKeys } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
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
      <h1>Verify your email address</h1>
      {token.length === 0 ? (
        <>
          <p>This page needs the link from your verification email. Open the link from the email again.</p>
          <ResendVerification />
        </>
      ) : verify.isSuccess ? (
        <div role="status">
          <p>
            Your email address <strong>{verify.data.email}</strong> is verified.
          </p>
          <p>
            <Link href="/login">Continue to the dashboard</Link>
          </p>
        </div>
      ) : verify.isError ? (
        <>
          <ProblemDisplay problem={problemOf(verify.error)} />
          {verify.error !== null && problemOf(verify.error).code === 'token_used' ? (
            <p>
              <Link href="/login">Sign in</Link>
            </p>
          ) : (
            <ResendVerification />
          )}
        </>
      ) : (
        <p aria-busy="true">Verifying your address…</p>
      )}
    </div>
  );
}
