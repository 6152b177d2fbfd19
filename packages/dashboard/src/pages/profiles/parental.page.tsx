import type { ParentalService, Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { Switch } from '../../components/switch.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AllowancePresets } from './allowance-presets.js';
import { ProfileFrame } from './profile-frame.js';
import { ServiceGrid } from './service-grid.js';
import { useProfileToggle } from './use-profile-toggle.js';
import './profiles.css';

function ParentalControls({ profile }: { profile: Profile }) {
  const categories = useQuery(catalogueQueries.parentalCategories());
  const services = useQuery(catalogueQueries.parentalServices());
  const toggle = useProfileToggle(profile.id);
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
    return <p aria-busy="true">{t('profiles.parental.loading')}</p>;
  const parental = profile.parental;
  const categoryName = (id: string) =>
    categories.data.categories.find((category) => category.id === id)?.name ??
    t('profiles.parental.aCategory');
  const switchFlag = (key: 'safe_search' | 'youtube_restricted', label: string, on: boolean) =>
    toggle(
      { parental: { [key]: on } },
      label,
      t(on ? 'profiles.toggle.on' : 'profiles.toggle.off', { what: label }),
    );
  const switchCategory = (id: string, name: string, block: boolean) =>
    toggle(
      {
        parental: {
          categories: block
            ? [...parental.categories.filter((each) => each !== id), id]
            : parental.categories.filter((each) => each !== id),
        },
      },
      name,
      t(block ? 'profiles.parental.blocked' : 'profiles.parental.allowed', { name }),
    );
  const switchService = (service: ParentalService, block: boolean) =>
    toggle(
      {
        parental: {
          services: block
            ? [...parental.services.filter((each) => each !== service.id), service.id]
            : parental.services.filter((each) => each !== service.id),
        },
      },
      service.name,
      t(block ? 'profiles.parental.blocked' : 'profiles.parental.allowed', { name: service.name }),
    );
  const safeSearch = t('profiles.parental.safe_search');
  const youtube = t('profiles.parental.youtube_restricted');
  return (
    <>
      <p className="hint">{t('profiles.toggle.appliesAtOnce')}</p>
      <fieldset>
        <legend>{t('profiles.parental.searchLegend')}</legend>
        <Switch
          label={safeSearch}
          hint={t('profiles.parental.safe_search.hint')}
          checked={parental.safe_search}
          onChange={(on) => switchFlag('safe_search', safeSearch, on)}
        />
        <Switch
          label={youtube}
          hint={t('profiles.parental.youtube_restricted.hint')}
          checked={parental.youtube_restricted}
          onChange={(on) => switchFlag('youtube_restricted', youtube, on)}
        />
      </fieldset>
      <fieldset>
        <legend>{t('profiles.parental.categoriesLegend')}</legend>
        <div className="category-grid">
          {categories.data.categories.map((category) => (
            <Switch
              key={category.id}
              label={category.name}
              hint={category.description}
              checked={parental.categories.includes(category.id)}
              onChange={(block) => switchCategory(category.id, category.name, block)}
            />
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('profiles.parental.servicesLegend')}</legend>
        <ServiceGrid
          services={services.data}
          parental={parental}
          categoryName={categoryName}
          onSwitch={switchService}
        />
      </fieldset>
      <BlockedServiceAllowances profileId={profile.id} services={services.data} blocked={parental.services} />
    </>
  );
}

/** "Unblock … for" each blocked service (issue 38): a timed allowance, the service blocked again after it. */
function BlockedServiceAllowances({
  profileId,
  services,
  blocked,
}: {
  profileId: string;
  services: readonly ParentalService[];
  blocked: readonly string[];
}) {
  const shown = services.filter((service) => blocked.includes(service.id));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="service-allowances">
      <h2 id="service-allowances">{t('allowances.servicesTitle')}</h2>
      {shown.map((service) => (
        <AllowancePresets
          key={service.id}
          profileId={profileId}
          target={{ service: service.id }}
          legend={t('allowances.unblockFor', { service: service.name })}
          subject={service.name}
        />
      ))}
    </section>
  );
}

/** Parental controls: safe search, YouTube, categories and services from the API's catalogues, applied at once. */
export default function ParentalPage() {
  return (
    <ProfileFrame title={t('profiles.parental.title')}>
      {(profile) => <ParentalControls profile={profile} />}
    </ProfileFrame>
  );
}
