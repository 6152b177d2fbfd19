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
      <h2 id="preferences-title">{t('account.preferences.title')}</h2>
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
          <label htmlFor="pref-node-offline">{t('account.preferences.nodeOffline')}</label>
        </div>
      )}
      {update.isSuccess && (
        <p role="status" className="saved">
          {t('common.saved')}
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
        <h2 id="deletion-title">{t('account.deletion.pendingTitle')}</h2>
        {/* The dates stay machine-readable (<time>): the end of the cooling-off is what the person acts on. */}
        <p>
          {t('account.deletion.askedOn')} <DateTime value={current.deletion_requested_at} />.{' '}
          {t('account.deletion.erasedOn')}{' '}
          <strong>
            <DateTime value={current.deletion_due_at} />
          </strong>
          . {t('account.deletion.changeMind')}
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
          {t('account.deletion.cancel')}
        </button>
      </section>
    );
  return (
    <section aria-labelledby="deletion-title">
      <h2 id="deletion-title">{t('account.deletion.title')}</h2>
      <p>{t('account.deletion.intro')}</p>
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
        <label htmlFor="delete-understood">{t('account.deletion.understood')}</label>
      </div>
      <button
        type="button"
        className="danger"
        disabled={!understood || remove.isPending}
        onClick={() => remove.mutate()}
      >
        {t('account.deletion.submit')}
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
      <h1>{t('account.overview.title')}</h1>
      <AccountTabs />
      {current !== undefined && current !== null && (
        <dl className="facts">
          <dt>{t('account.overview.email')}</dt>
          <dd>
            {current.email}{' '}
            {current.email_verified_at === null ? (
              <strong>{t('account.overview.notVerified')}</strong>
            ) : (
              <span>{t('account.overview.verified')}</span>
            )}
          </dd>
          <dt>{t('account.overview.plan')}</dt>
          <dd>{t('account.overview.planName', { plan: current.plan })}</dd>
          <dt>{t('account.overview.secondFactor')}</dt>
          <dd>{current.mfa ? t('common.on') : t('common.off')}</dd>
          <dt>{t('account.overview.memberSince')}</dt>
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
