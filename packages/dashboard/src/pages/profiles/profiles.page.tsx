import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { profileKey } from './use-profile.js';

/** Cache key of the profile list. */
const PROFILES_QUERY_KEY = ['profiles'] as const;

/** The organisation's profiles, and a form to create one (which then opens, to set up a device). */
export default function ProfilesPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const deleted = new URLSearchParams(useSearch()).get('deleted');
  const profiles = useQuery({ queryKey: PROFILES_QUERY_KEY, queryFn: () => api.profiles.list().toArray() });
  const create = useApiForm(
    (values) => {
      const name = values.optionalText('name');
      return api.profiles.create(name === undefined ? {} : { name });
    },
    {
      onSuccess: (profile) => {
        queryClient.setQueryData(profileKey(profile.id), profile);
        void queryClient.invalidateQueries({ queryKey: PROFILES_QUERY_KEY, exact: true });
        navigate(`/profiles/${profile.id}`);
      },
    },
  );

  return (
    <>
      <h1>Profiles</h1>
      <p>
        A profile is one set of filtering choices, with its own DNS addresses for the devices that use it.
      </p>
      {deleted !== null && (
        <p className="notice" role="status">
          Profile {deleted} is deleted.
        </p>
      )}
      {profiles.isPending ? (
        <p aria-busy="true">Loading profiles…</p>
      ) : profiles.isError ? (
        <ProblemDisplay problem={problemOf(profiles.error)} onRetry={() => void profiles.refetch()} />
      ) : profiles.data.length === 0 ? (
        <p>You have no profile yet. Create one below.</p>
      ) : (
        <ul className="card-list" aria-label="Your profiles">
          {profiles.data.map((profile) => (
            <li key={profile.id}>
              <Link href={`/profiles/${profile.id}`} className="card-title">
                {profile.name}
              </Link>{' '}
              <code>{profile.id}</code>
              {profile.suspended && <strong className="badge"> Suspended</strong>}
              <span className="card-links">
                <Link href={`/profiles/${profile.id}/logs`} aria-label={`Logs of ${profile.name}`}>
                  Logs
                </Link>
                <Link href={`/profiles/${profile.id}/analytics`} aria-label={`Analytics of ${profile.name}`}>
                  Analytics
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="create-profile">
        <h2 id="create-profile">Create a profile</h2>
        {create.problem !== null && (
          <ProblemDisplay problem={create.problem} fieldLabels={{ name: 'Name' }} focus />
        )}
        <form onSubmit={create.onSubmit} noValidate>
          <TextField
            name="name"
            label="Name"
            hint="For example Home or Kids' tablets. The settings start from the service's defaults."
            error={create.errorOf('name')}
          />
          <SubmitButton pending={create.pending}>Create profile</SubmitButton>
        </form>
      </section>
    </>
  );
}
