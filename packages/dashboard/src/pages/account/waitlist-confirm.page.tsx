import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { api } from '../../api/client.js';
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
      <h1>Your place on the waitlist</h1>
      {token.length === 0 ? (
        <p>This page needs the link from your waitlist email. Open the link from the email again.</p>
      ) : confirm.isSuccess ? (
        <p role="status">
          <strong>{confirm.data.email}</strong> is confirmed on the waitlist. We will email you when you can
          sign up.
        </p>
      ) : confirm.isError ? (
        <ProblemDisplay problem={problemOf(confirm.error)} />
      ) : (
        <p aria-busy="true">Confirming…</p>
      )}
    </div>
  );
}
