import type { Profile } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client.js';
import { profilesInvalidations } from '../../api/profiles.queries.js';
import { Switch } from '../../components/switch.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { knownValue } from '../../forms/known-value.js';
import { numberValue } from '../../forms/number-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFormOutcome } from './profile-form-outcome.js';
import { ProfileFrame } from './profile-frame.js';
import {
  BLOCK_MODES,
  DESTINATIONS,
  ECS_MODES,
  REGION_NAMES,
  REGIONS,
  settingLabels,
} from './settings-wording.js';
import { TimeZoneField } from './time-zone-field.js';
import { choicesOf, useCapabilities } from './use-capabilities.js';
import { useProfilePatchForm } from './use-profile-patch-form.js';
import { useProfileToggle } from './use-profile-toggle.js';

type Settings = Profile['settings'];
/** The on/off settings: switched at once, outside the form's Save. */
type SettingToggle = 'logs_enabled' | 'log_client_ip' | 'log_domains' | 'cname_uncloak';

/**
 * The values the form edits: when they change elsewhere (a newer version loaded), the form starts afresh; a
 * toggle switched on the page leaves what was typed in the form alone.
 */
function formVersion(profile: Profile): string {
  const { logs_enabled, log_client_ip, log_domains, cname_uncloak, ...edited } = profile.settings;
  return JSON.stringify([profile.name, edited]);
}

function SettingsForm({ profile }: { profile: Profile }) {
  const capabilities = useCapabilities();
  const toggle = useProfileToggle(profile.id);
  const labels = settingLabels();
  const label = (name: string) => labels[name] ?? name;
  const form = useProfilePatchForm(profile, (values) => ({
    name: values.text('name'),
    settings: {
      block_mode: knownValue(BLOCK_MODES, values.text('settings.block_mode')),
      log_destination: knownValue(DESTINATIONS, values.text('settings.log_destination')),
      retention_days: numberValue(values, 'settings.retention_days'),
      node_queue_hours: numberValue(values, 'settings.node_queue_hours'),
      cache_boost_ttl: numberValue(values, 'settings.cache_boost_ttl'),
      ecs: knownValue(ECS_MODES, values.text('settings.ecs')),
      log_region: knownValue(REGIONS, values.text('settings.log_region')),
      time_zone: values.text('settings.time_zone'),
    },
  }));
  if (capabilities.isPending) return <p aria-busy="true">{t('profiles.settings.loading')}</p>;
  const settings = profile.settings;
  const choice = (name: string, current: string, wording: Parameters<typeof choicesOf>[3]) => (
    <ChoiceField
      name={name}
      legend={label(name)}
      choices={choicesOf(capabilities.data, name, current, wording)}
      defaultValue={current}
      error={form.errorOf(name)}
    />
  );
  // Switches carry no name: they are written at once, never sent with the form's Save.
  const switchOf = (key: SettingToggle, hint?: string) => {
    const what = label(`settings.${key}`);
    return (
      <Switch
        label={what}
        {...(hint === undefined ? {} : { hint })}
        checked={settings[key]}
        onChange={(on) =>
          toggle(
            { settings: { [key]: on } satisfies Partial<Settings> },
            what,
            t(on ? 'profiles.toggle.on' : 'profiles.toggle.off', { what }),
          )
        }
      />
    );
  };
  const number = (name: string, value: number, hint: string) => (
    <TextField
      name={name}
      label={label(name)}
      hint={hint}
      inputMode="numeric"
      defaultValue={String(value)}
      error={form.errorOf(name)}
      className="input-short"
    />
  );
  return (
    <>
      <ProfileFormOutcome form={form} profile={profile} fieldLabels={labels} editedVersion={formVersion} />
      <form onSubmit={form.onSubmit} noValidate key={formVersion(profile)}>
        <TextField
          name="name"
          label={label('name')}
          defaultValue={profile.name}
          error={form.errorOf('name')}
        />
        {choice('settings.block_mode', settings.block_mode, BLOCK_MODES)}
        <TimeZoneField defaultValue={settings.time_zone} error={form.errorOf('settings.time_zone')} />
        <h2>{t('profiles.settings.logsTitle')}</h2>
        <p className="hint">{t('profiles.settings.togglesApplyAtOnce')}</p>
        {switchOf('logs_enabled')}
        {switchOf('log_domains', t('profiles.settings.log_domains.hint'))}
        {switchOf('log_client_ip')}
        {choice('settings.log_destination', settings.log_destination, DESTINATIONS)}
        {number(
          'settings.retention_days',
          settings.retention_days,
          t('profiles.settings.retention_days.hint'),
        )}
        {number(
          'settings.node_queue_hours',
          settings.node_queue_hours,
          t('profiles.settings.node_queue_hours.hint'),
        )}
        {choice('settings.log_region', settings.log_region, REGION_NAMES)}
        <h2>{t('profiles.settings.resolverTitle')}</h2>
        {switchOf('cname_uncloak', t('profiles.settings.cname_uncloak.hint'))}
        {number(
          'settings.cache_boost_ttl',
          settings.cache_boost_ttl,
          t('profiles.settings.cache_boost_ttl.hint'),
        )}
        {choice('settings.ecs', settings.ecs, ECS_MODES)}
        <SubmitButton pending={form.pending} busyText={t('common.saving')}>
          {t('profiles.settings.save')}
        </SubmitButton>
      </form>
      <DeleteProfile profile={profile} />
    </>
  );
}

/** Deleting the profile, behind a confirmation step. */
function DeleteProfile({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const form = useApiForm(
    async () => {
      try {
        return await api.profiles.delete(profile.id, { ifMatch: profile.version });
      } catch (error) {
        // Changed meanwhile: the page reads the profile again, so that what is deleted next is what is shown.
        if (problemOf(error).code === 'version_mismatch')
          profilesInvalidations.partSaved(queryClient, profile.id);
        throw error;
      }
    },
    {
      onSuccess: () => {
        profilesInvalidations.profileDeleted(queryClient, profile.id);
        navigate(`/profiles?deleted=${encodeURIComponent(profile.name)}`);
      },
    },
  );
  return (
    <section aria-labelledby="delete-profile" className="danger-zone">
      <h2 id="delete-profile">{t('profiles.settings.deleteTitle')}</h2>
      <p>{t('profiles.settings.deleteIntro')}</p>
      {form.problem !== null && <ProblemDisplay problem={form.problem} focus />}
      {confirming ? (
        <form onSubmit={form.onSubmit}>
          <p className="warning">{t('profiles.settings.deleteConfirm', { name: profile.name })}</p>
          <div className="actions">
            <button type="submit" className="danger" disabled={form.pending}>
              {t('profiles.settings.deleteYes', { name: profile.name })}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('profiles.settings.deleteKeep')}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t('profiles.settings.deleteButton')}
        </button>
      )}
    </section>
  );
}

/** Name, block mode, logging and resolver settings; the choices are the deployment's (GET /v1/capabilities). */
export default function SettingsPage() {
  return (
    <ProfileFrame title={t('profiles.settings.title')}>
      {(profile) => <SettingsForm profile={profile} />}
    </ProfileFrame>
  );
}
