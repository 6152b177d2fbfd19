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
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
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
  if (state.isPending) return <p aria-busy="true">Loading the profile…</p>;
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
          <Link href={`/operator/profiles?q=${encodeURIComponent(text)}`}>Back to the profiles found</Link>
        </p>
      )}
      <dl className="facts">
        <dt>Organisation</dt>
        <dd>
          <code>{profile.org_id}</code>
        </dd>
        <dt>Version</dt>
        <dd>{profile.version}</dd>
        <dt>State</dt>
        <dd>{profile.suspended ? 'Suspended' : 'Active'}</dd>
        {profile.suspended && (
          <>
            <dt>Suspended</dt>
            <dd>
              <DateTime value={profile.suspended_at} /> by {profile.suspended_by ?? 'unknown'}
            </dd>
            <dt>Reason (operators only)</dt>
            <dd>{profile.reason ?? '—'}</dd>
          </>
        )}
      </dl>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ reason: 'Reason' }} focus />
      )}
      <form onSubmit={form.onSubmit} noValidate key={String(profile.suspended)}>
        {profile.suspended ? (
          <SubmitButton pending={form.pending} busyText="Reinstating…">
            Reinstate the profile
          </SubmitButton>
        ) : (
          <>
            <p>
              A suspended profile resolves without filtering or logging and refuses changes; its owner sees
              that it is suspended, never why.
            </p>
            <TextareaField
              name="reason"
              label="Reason"
              hint="Required; seen by operators only."
              rows={2}
              error={form.errorOf('reason')}
            />
            <SubmitButton pending={form.pending} busyText="Suspending…">
              Suspend the profile
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
    <PagedList list={list} empty={`No profile matches “${text}”.`} more="Show more profiles">
      {(items) => (
        <ResponsiveTable
          caption={`Profiles matching “${text}”, newest first`}
          rows={items}
          rowKey={(profile) => profile.id}
          columns={[
            {
              header: 'Profile',
              cell: (profile) => (
                <Link href={`/operator/profiles?q=${encodeURIComponent(text)}&profile=${profile.id}`}>
                  {profile.name}
                </Link>
              ),
            },
            { header: 'Id', cell: (profile) => <code>{profile.id}</code> },
            { header: 'Owner', cell: (profile) => profile.owner_email ?? '—' },
            { header: 'State', cell: (profile) => (profile.suspended ? 'Suspended' : 'Active') },
            { header: 'Created', cell: (profile) => <DateTime value={profile.created_at} /> },
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
    <OperatorFrame title="Profile suspension">
      <SearchForm
        id="find-profile"
        label="Find a profile"
        hint="Its owner’s email (or part of it), its name or its id."
        initial={text}
        button="Find profiles"
        onSearch={(typed) => navigate(`/operator/profiles?q=${encodeURIComponent(typed)}`)}
      />
      {text !== '' && profileId === '' && <ProfileMatches key={text} text={text} open={open} />}
      {profileId !== '' && <Suspension key={profileId} profileId={profileId} text={text} />}
    </OperatorFrame>
  );
}
