import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { profilesInvalidations, profilesQueries } from '../../api/profiles.queries.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { PausedBadge } from './paused-badge.js';
import { browserTimeZone, TimeZoneField } from './time-zone-field.js';

/** The organisation's profiles, and a form to create one (which then opens, to set up a device). */
export default function ProfilesPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const deleted = new URLSearchParams(useSearch()).get('deleted');
  const profiles = useQuery(profilesQueries.list());
  const create = useApiForm(
    (values) => {
      const name = values.optionalText('name');
      const settings = { time_zone: values.text('settings.time_zone') };
      return api.profiles.create(name === undefined ? { settings } : { name, settings });
    },
    {
      onSuccess: (profile) => {
        profilesInvalidations.profileSaved(queryClient, profile);
        navigate(`/profiles/${profile.id}`);
      },
    },
  );

  return (
    <>
      <h1>{t('profiles.list.title')}</h1>
      <p>{t('profiles.list.intro')}</p>
      {deleted !== null && (
        <p className="notice" role="status">
          {t('profiles.list.deleted', { name: deleted })}
        </p>
      )}
      {profiles.isPending ? (
        <p aria-busy="true">{t('profiles.list.loading')}</p>
      ) : profiles.isError ? (
        <ProblemDisplay problem={problemOf(profiles.error)} onRetry={() => void profiles.refetch()} />
      ) : profiles.data.length === 0 ? (
        <p>{t('profiles.list.none')}</p>
      ) : (
        <ul className="card-list" aria-label={t('profiles.list.yours')}>
          {profiles.data.map((profile) => (
            <li key={profile.id}>
              <Link href={`/profiles/${profile.id}`} className="card-title">
                {profile.name}
              </Link>{' '}
              <code>{profile.id}</code>
              {profile.suspended && <strong className="badge"> {t('profiles.list.suspended')}</strong>}
              <PausedBadge profile={profile} />
              <span className="card-links">
                <Link
                  href={`/profiles/${profile.id}/logs`}
                  aria-label={t('profiles.list.logsOf', { name: profile.name })}
                >
                  {t('profiles.tab.logs')}
                </Link>
                <Link
                  href={`/profiles/${profile.id}/analytics`}
                  aria-label={t('profiles.list.analyticsOf', { name: profile.name })}
                >
                  {t('profiles.tab.analytics')}
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="create-profile">
        <h2 id="create-profile">{t('profiles.list.create')}</h2>
        {create.problem !== null && (
          <ProblemDisplay
            problem={create.problem}
            fieldLabels={{
              name: t('profiles.list.name'),
              'settings.time_zone': t('profiles.settings.time_zone'),
            }}
            focus
          />
        )}
        <form onSubmit={create.onSubmit} noValidate>
          <TextField
            name="name"
            label={t('profiles.list.name')}
            hint={t('profiles.list.nameHint')}
            error={create.errorOf('name')}
          />
          <TimeZoneField defaultValue={browserTimeZone()} error={create.errorOf('settings.time_zone')} />
          <SubmitButton pending={create.pending}>{t('profiles.list.createButton')}</SubmitButton>
        </form>
      </section>
    </>
  );
}
