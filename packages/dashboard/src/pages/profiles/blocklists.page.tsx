import type { Blocklist, Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { profilesQueries } from '../../api/profiles.queries.js';
import { Switch } from '../../components/switch.js';
import { fieldId } from '../../forms/field-id.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { BlocklistFacts, BlocklistSources } from './blocklist-facts.js';
import { ProfileFrame } from './profile-frame.js';
import { settingName } from './security-wording.js';
import { useListsToggle } from './use-profile-toggle.js';
import './profiles.css';

/** Where a list backed by a setting is turned on: the setting by its name, linked to its page. */
function BackedBy({ profileId, setting, toggle }: { profileId: string; setting: string; toggle: string }) {
  const security = toggle.startsWith('security.');
  return (
    <p className="hint">
      {t('profiles.blocklists.turnedOnWith', { setting })}{' '}
      <Link href={`/profiles/${profileId}/${security ? 'security' : 'parental'}`}>
        {security ? t('profiles.security.title') : t('profiles.parental.title')}
      </Link>
      .
    </p>
  );
}

function Blocklists({ profile }: { profile: Profile }) {
  const catalogue = useQuery(catalogueQueries.lists());
  const categories = useQuery(catalogueQueries.parentalCategories());
  const enabled = useQuery(profilesQueries.lists(profile.id));
  const toggle = useListsToggle(profile.id);
  if (catalogue.isError || enabled.isError)
    return (
      <ProblemDisplay
        problem={problemOf(catalogue.error ?? enabled.error)}
        onRetry={() => {
          void catalogue.refetch();
          void enabled.refetch();
        }}
      />
    );
  if (catalogue.data === undefined || enabled.data === undefined)
    return <p aria-busy="true">{t('profiles.blocklists.loading')}</p>;
  const on = enabled.data.lists;
  const switchList = (list: Blocklist, turnOn: boolean) =>
    toggle({
      change: turnOn ? [...on.filter((id) => id !== list.id), list.id] : on.filter((id) => id !== list.id),
      what: list.name,
      done: t(turnOn ? 'profiles.toggle.on' : 'profiles.toggle.off', { what: list.name }),
    });
  const categoryName = (id: string) =>
    categories.data?.categories.find((category) => category.id === id)?.name ??
    t('profiles.parental.aCategory');
  const byId = catalogue.data.lists.filter((list) => list.toggle === '');
  const bySetting = catalogue.data.lists.filter((list) => list.toggle !== '');
  return (
    <>
      <p>
        {t('profiles.blocklists.intro', {
          version: catalogue.data.version,
          updated: formatDateTime(catalogue.data.updated_at),
        })}
      </p>
      <fieldset id={fieldId('lists')}>
        <legend>{t('profiles.blocklists.byIdLegend')}</legend>
        <p className="hint">{t('profiles.toggle.appliesAtOnce')}</p>
        <ul className="blocklist-cards">
          {byId.map((list) => (
            <li key={list.id} className="blocklist">
              <Switch
                label={list.name}
                hint={list.description}
                checked={on.includes(list.id)}
                onChange={(turnOn) => switchList(list, turnOn)}
              />
              <BlocklistFacts list={list} />
              <BlocklistSources list={list} />
            </li>
          ))}
        </ul>
      </fieldset>
      <h2>{t('profiles.blocklists.bySettingTitle')}</h2>
      <ul className="blocklist-cards">
        {bySetting.map((list) => (
          <li key={list.id} className="blocklist">
            <strong>{list.name}</strong>
            <p className="hint">{list.description}</p>
            <BackedBy
              profileId={profile.id}
              toggle={list.toggle}
              setting={settingName(list.toggle, categoryName)}
            />
            <BlocklistFacts list={list} />
            <BlocklistSources list={list} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** The blocklist catalogue with its licences and freshness, and which lists this profile turns on. */
export default function BlocklistsPage() {
  return (
    <ProfileFrame title={t('profiles.blocklists.title')}>
      {(profile) => <Blocklists profile={profile} />}
    </ProfileFrame>
  );
}
