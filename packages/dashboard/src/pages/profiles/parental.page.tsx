import type { ParentalService, Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { fieldId } from '../../forms/field-id.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFormOutcome } from './profile-form-outcome.js';
import { ProfileFrame } from './profile-frame.js';
import { useProfilePatchForm } from './use-profile-patch-form.js';

const LABELS: Readonly<Record<string, string>> = {
  'parental.safe_search': 'Force safe search',
  'parental.youtube_restricted': 'Force YouTube restricted mode',
  'parental.categories': 'Categories',
  'parental.services': 'Services',
};

/** Whether `service` matches what was typed in the search box (name, id or a category). */
function matches(service: ParentalService, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (text === '') return true;
  return [service.name, service.id, ...service.categories].some((part) => part.toLowerCase().includes(text));
}

function ParentalForm({ profile }: { profile: Profile }) {
  const categories = useQuery({
    queryKey: ['catalogue', 'parental-categories'],
    queryFn: () => api.catalogue.parentalCategories(),
  });
  const services = useQuery({
    queryKey: ['catalogue', 'parental-services'],
    queryFn: () => api.catalogue.parentalServices({ limit: 200 }).toArray(),
  });
  const [search, setSearch] = useState('');
  const form = useProfilePatchForm(profile, (values) => ({
    parental: {
      safe_search: values.checked('parental.safe_search'),
      youtube_restricted: values.checked('parental.youtube_restricted'),
      categories: values.all('parental.categories'),
      services: values.all('parental.services'),
    },
  }));
  const failure = categories.error ?? services.error;
  if (failure !== null)
    return (
      <ProblemDisplay
        problem={problemOf(failure)}
        onRetry={() => {
          void categories.refetch();
          void services.refetch();
        }}
      />
    );
  if (categories.data === undefined || services.data === undefined)
    return <p aria-busy="true">Loading the catalogues…</p>;
  const catalogue = { categories: categories.data.categories, services: services.data };
  const shown = catalogue.services.filter((service) => matches(service, search));
  return (
    <>
      <ProfileFormOutcome form={form} profile={profile} fieldLabels={LABELS} />
      <form onSubmit={form.onSubmit} noValidate key={profile.version}>
        <fieldset>
          <legend>Search engines and video</legend>
          <CheckboxField
            name="parental.safe_search"
            label={LABELS['parental.safe_search'] ?? ''}
            hint="Google, Bing, DuckDuckGo and others show only safe results."
            defaultChecked={profile.parental.safe_search}
            error={form.errorOf('parental.safe_search')}
          />
          <CheckboxField
            name="parental.youtube_restricted"
            label={LABELS['parental.youtube_restricted'] ?? ''}
            hint="YouTube hides videos that may be inappropriate."
            defaultChecked={profile.parental.youtube_restricted}
            error={form.errorOf('parental.youtube_restricted')}
          />
        </fieldset>
        <fieldset id={fieldId('parental.categories')}>
          <legend>Block these categories</legend>
          {form.errorOf('parental.categories') !== undefined && (
            <p className="field-error">{form.errorOf('parental.categories')}</p>
          )}
          {catalogue.categories.map((category) => (
            <CheckboxField
              key={category.id}
              id={`${fieldId('parental.categories')}-${category.id}`}
              name="parental.categories"
              value={category.id}
              label={category.name}
              hint={category.description}
              defaultChecked={profile.parental.categories.includes(category.id)}
            />
          ))}
        </fieldset>
        <fieldset id={fieldId('parental.services')}>
          <legend>Block these services</legend>
          <div className="field">
            <label htmlFor="service-search">Find a service</label>
            <input
              id="service-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              aria-controls="service-list"
            />
            <p className="hint" role="status">
              {shown.length === catalogue.services.length
                ? `${catalogue.services.length} services`
                : `${shown.length} of ${catalogue.services.length} services match`}
            </p>
          </div>
          {form.errorOf('parental.services') !== undefined && (
            <p className="field-error">{form.errorOf('parental.services')}</p>
          )}
          <div id="service-list" className="choice-columns">
            {catalogue.services.map((service) => (
              // Filtered-out services stay in the form (hidden), so saving keeps their state.
              <div key={service.id} hidden={!matches(service, search)}>
                <CheckboxField
                  id={`${fieldId('parental.services')}-${service.id}`}
                  name="parental.services"
                  value={service.id}
                  label={service.name}
                  hint={
                    service.categories.length > 0 ? `Also in: ${service.categories.join(', ')}` : undefined
                  }
                  defaultChecked={profile.parental.services.includes(service.id)}
                />
              </div>
            ))}
          </div>
        </fieldset>
        <SubmitButton pending={form.pending} busyText="Saving…">
          Save parental controls
        </SubmitButton>
      </form>
    </>
  );
}

/** Parental controls: safe search, YouTube, categories and services from the API's catalogues. */
export default function ParentalPage() {
  return (
    <ProfileFrame title="Parental controls">{(profile) => <ParentalForm profile={profile} />}</ProfileFrame>
  );
}
