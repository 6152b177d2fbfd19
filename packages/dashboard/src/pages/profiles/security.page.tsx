import type { Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { Switch } from '../../components/switch.js';
import { t } from '../../i18n/t.js';
import { ProfileFrame } from './profile-frame.js';
import { SECURITY_TOGGLES, type SecurityToggle, securityWording } from './security-wording.js';
import { useProfileToggle } from './use-profile-toggle.js';

function SecurityToggles({ profile }: { profile: Profile }) {
  const toggle = useProfileToggle(profile.id);
  // The catalogue says which lists back each toggle: shown so that people see what a toggle turns on.
  const catalogue = useQuery(catalogueQueries.lists());
  const backing = (key: SecurityToggle) =>
    (catalogue.data?.lists ?? [])
      .filter((list) => list.toggle === `security.${key}`)
      .map((list) => list.name);
  return (
    <fieldset>
      <legend>{t('profiles.security.legend')}</legend>
      <p className="hint">{t('profiles.toggle.appliesAtOnce')}</p>
      {SECURITY_TOGGLES.map((key) => {
        const wording = securityWording(key);
        const lists = backing(key);
        return (
          <Switch
            key={key}
            label={wording.label}
            hint={
              lists.length === 0
                ? wording.hint
                : t('profiles.security.withLists', { hint: wording.hint, lists })
            }
            checked={profile.security[key]}
            onChange={(on) =>
              toggle(
                { security: { [key]: on } },
                wording.label,
                t(on ? 'profiles.toggle.on' : 'profiles.toggle.off', { what: wording.label }),
              )
            }
          />
        );
      })}
    </fieldset>
  );
}

/** The profile's security toggles (spec 2.3 `security`), each applied as soon as it is switched. */
export default function SecurityPage() {
  return (
    <ProfileFrame title={t('profiles.security.title')}>
      {(profile) => <SecurityToggles profile={profile} />}
    </ProfileFrame>
  );
}
