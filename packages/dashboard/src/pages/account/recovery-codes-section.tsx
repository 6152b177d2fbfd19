import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** How many recovery codes are left, and replacing them all (the old ones stop working). */
export function RecoveryCodesSection() {
  const queryClient = useQueryClient();
  const remaining = useQuery(authQueries.recoveryCodes());
  const replace = useMutation({
    mutationFn: () => api.auth.recoveryCodes.replace(),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: authKeys.recoveryCodes() }),
  });
  return (
    <section aria-labelledby="recovery-title">
      <h2 id="recovery-title">Recovery codes</h2>
      {remaining.isError ? (
        <ProblemDisplay problem={problemOf(remaining.error)} onRetry={() => void remaining.refetch()} />
      ) : remaining.data !== undefined ? (
        <p>
          You have <strong>{remaining.data}</strong> unused recovery code{remaining.data === 1 ? '' : 's'}.
        </p>
      ) : null}
      {replace.data !== undefined && <RecoveryCodesShown codes={replace.data} />}
      {replace.isError && (
        <ProblemDisplay problem={problemOf(replace.error)} afterReauth={() => replace.mutate()} />
      )}
      <button type="button" disabled={replace.isPending} onClick={() => replace.mutate()}>
        Make new recovery codes
      </button>
    </section>
  );
}
