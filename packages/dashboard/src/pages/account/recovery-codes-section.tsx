import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** How many recovery codes are left, and replacing them all (the old ones stop working). */
export function RecoveryCodesSection() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // The button is disabled while the codes are made, which drops its focus: it gets it back once they are.
  const button = useRef<HTMLButtonElement>(null);
  const remaining = useQuery(authQueries.recoveryCodes());
  const replace = useMutation({
    mutationFn: () => api.auth.recoveryCodes.replace(),
    onSuccess: () => {
      notify.success(t('account.recoveryCodes.replaced'));
      void queryClient.invalidateQueries({ queryKey: authKeys.recoveryCodes() });
    },
  });
  const replaced = replace.data;
  useEffect(() => {
    if (replaced !== undefined) button.current?.focus();
  }, [replaced]);
  return (
    <section aria-labelledby="recovery-title">
      <h2 id="recovery-title">{t('account.recoveryCodes.title')}</h2>
      {remaining.isError ? (
        <ProblemDisplay problem={problemOf(remaining.error)} onRetry={() => void remaining.refetch()} />
      ) : remaining.data !== undefined ? (
        <p>{t('account.recoveryCodes.remaining', { count: remaining.data })}</p>
      ) : null}
      {replace.data !== undefined && <RecoveryCodesShown codes={replace.data} />}
      {replace.isError && (
        <ProblemDisplay problem={problemOf(replace.error)} afterReauth={() => replace.mutate()} />
      )}
      <button ref={button} type="button" disabled={replace.isPending} onClick={() => replace.mutate()}>
        {t('account.recoveryCodes.replace')}
      </button>
    </section>
  );
}
