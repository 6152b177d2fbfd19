import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ActorName } from './actor-name.js';
import { OperatorFrame } from './operator-frame.js';
import { SearchForm } from './operator-search.js';
import { PagedList, usePagedList } from './paged-list.js';

function Suspension({ profileId, text }: { profileId: string; text: string }) {
  const queryClient = useQueryClient();
  const key = adminKeys.profile(profileId);
  const state = useQuery({ queryKey: key, queryFn: () => api.admin.profiles.get(profileId) });
  const form = useApiForm(
    (values) =>
      state.data?.suspended === true
        ? api.admin.profiles.update(profileId, { suspended: false })
        : api.admin.profiles.update(profileId, { suspended: true, reason: values.text('reason') }),
    { onSuccess: (updated) => queryClient.setQueryData(key, updated) },
  );
  if (state.isPending) return <p aria-busy="true">{t('operator.profiles.loading')}</p>;
  if (state.isError)
    return <ProblemDisplay problem={problemOf(state.error)} onRetry={() => void state.refetch()} />;
  const profile = state.data;
  return (
    <section aria-labelledby="suspension">
      <h2 id="suspension">
        {profile.name} <code>{profile.profile_id}</code>
      </h2>
      {text !== '' && text.toLowerCase() !== profileId && (
        <p>
          <Link href={`/operator/profiles?q=${encodeURIComponent(text)}`}>{t('operator.profiles.back')}</Link>
        </p>
      )}
      <dl className="facts">
        <dt>{t('operator.profiles.organisation')}</dt>
        <dd>
          <code>{profile.org_id}</code>
        </dd>
        <dt>{t('operator.profiles.version')}</dt>
        <dd>{profile.version}</dd>
        <dt>{t('operator.profiles.state')}</dt>
        <dd>{profile.suspended ? t('operator.profiles.suspended') : t('operator.profiles.active')}</dd>
        {profile.suspended && (
          <>
            <dt>{t('operator.profiles.suspended')}</dt>
            <dd>
              <DateTime value={profile.suspended_at} />
              {t('operator.profiles.suspendedBy')}
              {profile.suspended_by === null ? (
                t('operator.unknown')
              ) : (
                <ActorName actor={profile.suspended_by} />
              )}
            </dd>
            <dt>{t('operator.profiles.reasonPrivate')}</dt>
            <dd>{profile.reason ?? '—'}</dd>
          </>
        )}
      </dl>
      {form.problem !== null && (
        <ProblemDisplay
          problem={form.problem}
          fieldLabels={{ reason: t('operator.profiles.reason') }}
          focus
        />
      )}
      <form onSubmit={form.onSubmit} noValidate key={String(profile.suspended)}>
        {profile.suspended ? (
          <SubmitButton pending={form.pending} busyText={t('operator.profiles.reinstating')}>
            {t('operator.profiles.reinstate')}
          </SubmitButton>
        ) : (
          <>
            <p>{t('operator.profiles.suspendIntro')}</p>
            <TextareaField
              name="reason"
              label={t('operator.profiles.reason')}
              hint={t('operator.profiles.reason.hint')}
              rows={2}
              error={form.errorOf('reason')}
            />
            <SubmitButton pending={form.pending} busyText={t('operator.profiles.suspending')}>
              {t('operator.profiles.suspend')}
            </SubmitButton>
          </>
        )}
      </form>
    </section>
  );
}

/** The profiles a search found; a search by a profile's id opens that profile at once. */
function ProfileMatches({ text, open }: { text: string; open: (profileId: string) => void }) {
  const list = usePagedList(adminKeys.profileSearch(text), (cursor) =>
    api.admin.profiles.search(text, { limit: 20 }).page(cursor),
  );
  const exact = list.data?.pages[0]?.items.find((profile) => profile.id === text.toLowerCase());
  useEffect(() => {
    if (exact !== undefined) open(exact.id);
  }, [exact, open]);
  return (
    <PagedList list={list} empty={t('operator.profiles.none', { text })} more={t('operator.profiles.more')}>
      {(items) => (
        <ResponsiveTable
          caption={t('operator.profiles.caption', { text })}
          rows={items}
          rowKey={(profile) => profile.id}
          columns={[
            {
              header: t('operator.profiles.profile'),
              cell: (profile) => (
                <Link href={`/operator/profiles?q=${encodeURIComponent(text)}&profile=${profile.id}`}>
                  {profile.name}
                </Link>
              ),
            },
            { header: t('operator.profiles.id'), cell: (profile) => <code>{profile.id}</code> },
            { header: t('operator.profiles.owner'), cell: (profile) => profile.owner_email ?? '—' },
            {
              header: t('operator.profiles.state'),
              cell: (profile) =>
                profile.suspended ? t('operator.profiles.suspended') : t('operator.profiles.active'),
            },
            {
              header: t('operator.profiles.created'),
              cell: (profile) => <DateTime value={profile.created_at} />,
            },
          ]}
        />
      )}
    </PagedList>
  );
}

/**
 * Any organisation's profile, found by its owner's email, its name or its id: its suspension state, suspend with
 * a reason, reinstate.
 */
export default function ProfileSuspensionPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const text = params.get('q') ?? '';
  const profileId = params.get('profile') ?? '';
  const open = useCallback(
    (id: string) =>
      navigate(`/operator/profiles?q=${encodeURIComponent(text)}&profile=${id}`, { replace: true }),
    [navigate, text],
  );
  return (
    <OperatorFrame title={t('operator.profiles.title')}>
      <SearchForm
        id="find-profile"
        label={t('operator.profiles.find')}
        hint={t('operator.profiles.find.hint')}
        initial={text}
        button={t('operator.profiles.find.button')}
        onSearch={(typed) => navigate(`/operator/profiles?q=${encodeURIComponent(typed)}`)}
      />
      {text !== '' && profileId === '' && <ProfileMatches key={text} text={text} open={open} />}
      {profileId !== '' && <Suspension key={profileId} profileId={profileId} text={text} />}
    </OperatorFrame>
  );
}
