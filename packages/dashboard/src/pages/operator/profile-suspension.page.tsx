import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { OperatorFrame } from './operator-frame.js';

function Suspension({ profileId }: { profileId: string }) {
  const queryClient = useQueryClient();
  const key = ['admin', 'profiles', profileId] as const;
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

/** Any organisation's profile by id: its suspension state, suspend with a reason, reinstate. */
export default function ProfileSuspensionPage() {
  const [, navigate] = useLocation();
  const profileId = new URLSearchParams(useSearch()).get('profile') ?? '';
  const [typed, setTyped] = useState(profileId);
  const find = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/operator/profiles?profile=${encodeURIComponent(typed.trim())}`);
  };
  return (
    <OperatorFrame title="Profile suspension">
      <form onSubmit={find} className="inline-form" aria-label="Find a profile">
        <div className="field">
          <label htmlFor="find-profile">Profile id</label>
          <input
            id="find-profile"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="primary">
          Find the profile
        </button>
      </form>
      {profileId !== '' && <Suspension key={profileId} profileId={profileId} />}
    </OperatorFrame>
  );
}
