import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** Cache key of the profile list. */
export const PROFILES_QUERY_KEY = ['profiles'] as const;

/** The organisation's profiles, and a form to create one. */
export default function ProfilesPage() {
  const queryClient = useQueryClient();
  const profiles = useQuery({ queryKey: PROFILES_QUERY_KEY, queryFn: () => api.profiles.list().toArray() });
  const create = useApiForm(
    (values) => {
      const name = values.optionalText('name');
      return api.profiles.create(name === undefined ? {} : { name });
    },
    { onSuccess: () => void queryClient.invalidateQueries({ queryKey: PROFILES_QUERY_KEY }) },
  );

  return (
    <>
      <h1>Profiles</h1>
      <p>
        A profile is one set of filtering choices, with its own DNS addresses for the devices that use it.
      </p>
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
              <span className="card-title">{profile.name}</span> <code>{profile.id}</code>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="create-profile">
        <h2 id="create-profile">Create a profile</h2>
        {create.problem !== null && (
          <ProblemDisplay problem={create.problem} fieldLabels={{ name: 'Name' }} focus />
        )}
        {create.result !== undefined && create.problem === null && (
          <p role="status">Profile {create.result.name} created.</p>
        )}
        <form onSubmit={create.onSubmit} noValidate>
          <TextField
            name="name"
            label="Name"
            hint="For example Home or Kids' tablets."
            error={create.errorOf('name')}
          />
          <SubmitButton pending={create.pending}>Create profile</SubmitButton>
        </form>
      </section>
    </>
  );
}
