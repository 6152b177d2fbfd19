import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { accountKeys, accountQueries } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { useNotify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useAccount } from '../../session/use-account.js';
import { AccountTabs } from './account-tabs.js';
import { DataExports } from './data-exports.js';

/** Alerts by email (spec 2.2). */
function Preferences() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const preferences = useQuery(accountQueries.preferences());
  const update = useMutation({
    mutationFn: (nodeOffline: boolean) =>
      api.auth.preferences.update({ alerts: { node_offline: nodeOffline } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(accountKeys.preferences(), saved);
      notify.success(t('account.preferences.saved'));
    },
  });
  return (
    <section aria-labelledby="preferences-title">
      <h2 id="preferences-title">Email alerts</h2>
      {preferences.isError && (
        <ProblemDisplay problem={problemOf(preferences.error)} onRetry={() => void preferences.refetch()} />
      )}
      {update.isError && <ProblemDisplay problem={problemOf(update.error)} />}
      {preferences.data !== undefined && (
        <div className="field checkbox">
          <input
            id="pref-node-offline"
            type="checkbox"
            checked={preferences.data.alerts.node_offline}
            disabled={update.isPending}
            onChange={(event) => update.mutate(event.currentTarget.checked)}
          />
          <label htmlFor="pref-node-offline">
            Email me when a self-hosted node goes offline or comes back
          </label>
        </div>
      )}
      {update.isSuccess && (
        <p role="status" className="saved">
          Saved.
        </p>
      )}
    </section>
  );
}

/** Deleting the account, with the cooling-off period shown, and undoing it within that period. */
function Deletion() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [understood, setUnderstood] = useState(false);
  const [, navigate] = useLocation();
  // Asking for the deletion revokes every session, this one included: the person is signed out, and told when
  // the account goes and how to cancel (sign in again, then Cancel the deletion here).
  const remove = useMutation({
    mutationFn: () => api.auth.deleteAccount(),
    onSuccess: (deleted) => {
      queryClient.clear();
      queryClient.setQueryData(accountKeys.me(), null);
      navigate(`/login?deletion_due=${encodeURIComponent(deleted.deletion_due_at ?? '')}`);
    },
  });
  const undelete = useMutation({
    mutationFn: () => api.auth.undelete(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
      notify.success(t('account.deletion.canceled'));
    },
  });
  const current = account.data;
  if (current === undefined || current === null) return null;
  if (current.deletion_requested_at !== null)
    return (
      <section aria-labelledby="deletion-title" className="warning">
        <h2 id="deletion-title">Your account is being deleted</h2>
        <p>
          You asked on <DateTime value={current.deletion_requested_at} />. Everything in it will be erased on{' '}
          <strong>
            <DateTime value={current.deletion_due_at} />
          </strong>
          . Until then you can change your mind.
        </p>
        {undelete.isError && (
          <ProblemDisplay problem={problemOf(undelete.error)} afterReauth={() => undelete.mutate()} />
        )}
        <button
          type="button"
          className="primary"
          disabled={undelete.isPending}
          onClick={() => undelete.mutate()}
        >
          Cancel the deletion
        </button>
      </section>
    );
  return (
    <section aria-labelledby="deletion-title">
      <h2 id="deletion-title">Delete your account</h2>
      <p>
        Your profiles, logs, tokens and settings are erased after a cooling-off period, during which you can
        cancel from this page. You will see the date once you ask.
      </p>
      {remove.isError && (
        <ProblemDisplay problem={problemOf(remove.error)} afterReauth={() => remove.mutate()} />
      )}
      <div className="field checkbox">
        <input
          id="delete-understood"
          type="checkbox"
          checked={understood}
          onChange={(event) => setUnderstood(event.currentTarget.checked)}
        />
        <label htmlFor="delete-understood">I understand that everything in my account will be erased</label>
      </div>
      <button
        type="button"
        className="danger"
        disabled={!understood || remove.isPending}
        onClick={() => remove.mutate()}
      >
        Delete my account
      </button>
    </section>
  );
}

/** The account's overview: who it is, email alerts, data export and deletion. */
export default function AccountPage() {
  const account = useAccount();
  const current = account.data;
  return (
    <>
      <h1>Your account</h1>
      <AccountTabs />
      {current !== undefined && current !== null && (
        <dl className="facts">
          <dt>Email address</dt>
          <dd>
            {current.email}{' '}
            {current.email_verified_at === null ? (
              <strong>(not verified yet)</strong>
            ) : (
              <span>(verified)</span>
            )}
          </dd>
          <dt>Plan</dt>
          <dd>{current.plan}</dd>
          <dt>Second factor</dt>
          <dd>{current.mfa ? 'On' : 'Off'}</dd>
          <dt>Member since</dt>
          <dd>
            <DateTime value={current.created_at} />
          </dd>
        </dl>
      )}
      <Preferences />
      <DataExports />
      <Deletion />
    </>
  );
}
