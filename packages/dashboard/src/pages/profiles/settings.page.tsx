import type { Profile } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client.js';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { knownValue } from '../../forms/known-value.js';
import { numberValue } from '../../forms/number-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { ProfileFormOutcome } from './profile-form-outcome.js';
import { ProfileFrame } from './profile-frame.js';
import { choicesOf, useCapabilities } from './use-capabilities.js';
import { useProfilePatchForm } from './use-profile-patch-form.js';

const LABELS: Readonly<Record<string, string>> = {
  name: 'Profile name',
  'settings.block_mode': 'Answer to blocked queries',
  'settings.logs_enabled': 'Keep query logs',
  'settings.log_client_ip': 'Keep client IP addresses in logs',
  'settings.log_domains': 'Keep queried names in logs',
  'settings.log_destination': 'Where logs go',
  'settings.retention_days': 'Cloud log retention (days)',
  'settings.node_queue_hours': 'Hours of logs kept for an offline node',
  'settings.log_region': 'Log storage region',
  'settings.cname_uncloak': 'Apply rules to CNAME targets',
  'settings.cache_boost_ttl': 'Minimum cache time (seconds)',
  'settings.ecs': 'Client subnet (ECS) sent upstream',
};

type Settings = Profile['settings'];
type Wording = { label: string; hint?: string };

const BLOCK_MODES: Readonly<Record<Settings['block_mode'], Wording>> = {
  nxdomain: { label: 'The name does not exist (NXDOMAIN)', hint: 'Most apps give up at once.' },
  refused: { label: 'Refused (REFUSED)' },
  null: { label: 'A null address (0.0.0.0 and ::)', hint: 'Connections fail immediately.' },
  'block-page': { label: 'The block page', hint: 'Browsers show a page saying why the site is blocked.' },
};
const DESTINATIONS: Readonly<Record<Settings['log_destination'], Wording>> = {
  cloud: { label: 'The cloud', hint: 'Searchable here for the retention period below.' },
  'self-hosted': { label: 'My self-hosted node only', hint: 'The logs never leave your network.' },
  both: { label: 'Both the cloud and my node' },
  none: { label: 'Nowhere', hint: 'No query is logged; analytics keep hourly totals only.' },
};
const ECS_MODES: Readonly<Record<Settings['ecs'], Wording>> = {
  off: { label: 'Off', hint: 'Upstream servers learn nothing about your network.' },
  anonymised: { label: 'Anonymised', hint: 'Your network, shortened to a /24 (IPv4) or /56 (IPv6).' },
  full: { label: 'Full', hint: 'Your address itself, for the most precise CDN answers.' },
};
const REGIONS: Readonly<Record<Settings['log_region'], Wording>> = { ca: { label: 'Canada' } };
/** Regions the API may list as not offered, named for people. */
const REGION_NAMES: Readonly<Record<string, Wording>> = { ...REGIONS, eu: { label: 'European Union' } };

const label = (name: string) => LABELS[name] ?? name;

function SettingsForm({ profile }: { profile: Profile }) {
  const capabilities = useCapabilities();
  const form = useProfilePatchForm(profile, (values) => ({
    name: values.text('name'),
    settings: {
      block_mode: knownValue(BLOCK_MODES, values.text('settings.block_mode')),
      logs_enabled: values.checked('settings.logs_enabled'),
      log_client_ip: values.checked('settings.log_client_ip'),
      log_domains: values.checked('settings.log_domains'),
      log_destination: knownValue(DESTINATIONS, values.text('settings.log_destination')),
      retention_days: numberValue(values, 'settings.retention_days'),
      node_queue_hours: numberValue(values, 'settings.node_queue_hours'),
      cname_uncloak: values.checked('settings.cname_uncloak'),
      cache_boost_ttl: numberValue(values, 'settings.cache_boost_ttl'),
      ecs: knownValue(ECS_MODES, values.text('settings.ecs')),
      log_region: knownValue(REGIONS, values.text('settings.log_region')),
    },
  }));
  if (capabilities.isPending) return <p aria-busy="true">Loading the choices…</p>;
  const settings = profile.settings;
  const choice = (name: string, current: string, labels: Parameters<typeof choicesOf>[3]) => (
    <ChoiceField
      name={name}
      legend={label(name)}
      choices={choicesOf(capabilities.data, name, current, labels)}
      defaultValue={current}
      error={form.errorOf(name)}
    />
  );
  const checkbox = (name: string, checked: boolean, hint?: string) => (
    <CheckboxField
      name={name}
      label={label(name)}
      hint={hint}
      defaultChecked={checked}
      error={form.errorOf(name)}
    />
  );
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
      <ProfileFormOutcome form={form} profile={profile} fieldLabels={LABELS} />
      <form onSubmit={form.onSubmit} noValidate key={profile.version}>
        <TextField
          name="name"
          label={label('name')}
          defaultValue={profile.name}
          error={form.errorOf('name')}
        />
        {choice('settings.block_mode', settings.block_mode, BLOCK_MODES)}
        <h2>Logs</h2>
        {checkbox('settings.logs_enabled', settings.logs_enabled)}
        {checkbox('settings.log_domains', settings.log_domains, 'Off: rows keep the time and outcome only.')}
        {checkbox('settings.log_client_ip', settings.log_client_ip)}
        {choice('settings.log_destination', settings.log_destination, DESTINATIONS)}
        {number('settings.retention_days', settings.retention_days, 'How long the cloud keeps each query.')}
        {number(
          'settings.node_queue_hours',
          settings.node_queue_hours,
          'While your node is offline, the cloud holds its logs this long and hands them over when it is back; 0 holds nothing.',
        )}
        {choice('settings.log_region', settings.log_region, REGION_NAMES)}
        <h2>Resolver</h2>
        {checkbox(
          'settings.cname_uncloak',
          settings.cname_uncloak,
          'Blocks trackers that hide behind a CNAME to a blocked name.',
        )}
        {number(
          'settings.cache_boost_ttl',
          settings.cache_boost_ttl,
          'Answers are cached at least this long; 0 keeps the upstream times.',
        )}
        {choice('settings.ecs', settings.ecs, ECS_MODES)}
        <SubmitButton pending={form.pending} busyText="Saving…">
          Save settings
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
  const form = useApiForm(() => api.profiles.delete(profile.id, { ifMatch: profile.version }), {
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['profiles', profile.id] });
      void queryClient.invalidateQueries({ queryKey: ['profiles'], exact: true });
      navigate(`/profiles?deleted=${encodeURIComponent(profile.name)}`);
    },
  });
  return (
    <section aria-labelledby="delete-profile" className="danger-zone">
      <h2 id="delete-profile">Delete this profile</h2>
      <p>
        Devices using its addresses stop resolving through it. Its logs are erased with it. This cannot be
        undone.
      </p>
      {form.problem !== null && <ProblemDisplay problem={form.problem} focus />}
      {confirming ? (
        <form onSubmit={form.onSubmit}>
          <p className="warning">Delete {profile.name} for good?</p>
          <div className="actions">
            <button type="submit" className="danger" disabled={form.pending}>
              Yes, delete {profile.name}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete profile
        </button>
      )}
    </section>
  );
}

/** Name, block mode, logging and resolver settings; the choices are the deployment's (GET /v1/capabilities). */
export default function SettingsPage() {
  return <ProfileFrame title="Settings">{(profile) => <SettingsForm profile={profile} />}</ProfileFrame>;
}
