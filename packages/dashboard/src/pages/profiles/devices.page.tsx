import type { Device, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { profilesInvalidations, profilesQueries } from '../../api/profiles.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { fieldId } from '../../forms/field-id.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { formatNumber } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from './profile-frame.js';

const KINDS: Readonly<Record<Device['kind'], string>> = {
  phone: t('profiles.devices.kind.phone'),
  laptop: t('profiles.devices.kind.laptop'),
  tv: t('profiles.devices.kind.tv'),
  router: t('profiles.devices.kind.router'),
  other: t('profiles.devices.kind.other'),
};
const TRANSPORTS: Readonly<Record<string, string>> = { doh: 'DoH', doh3: 'DoH3', dot: 'DoT', doq: 'DoQ' };
const LABELS = {
  display_name: t('profiles.devices.displayName'),
  kind: t('profiles.devices.kind'),
  notes: t('profiles.devices.notes'),
};

/** Renames, classifies and annotates one device (PATCH); empty fields clear. */
function DeviceEditor({
  profileId,
  device,
  onDone,
}: {
  profileId: string;
  device: Device;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useApiForm(
    (values) =>
      api.profiles.devices.update(profileId, device.id, {
        display_name: values.text('display_name').trim(),
        kind: knownValue(KINDS, values.text('kind')),
        notes: values.text('notes'),
      }),
    {
      onSuccess: () => {
        profilesInvalidations.devicesChanged(queryClient, profileId);
        onDone();
      },
    },
  );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={t('profiles.devices.edit', { name: device.label })}>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      <TextField
        name="display_name"
        label={LABELS.display_name}
        hint={
          device.name === ''
            ? t('profiles.devices.displayNameHint')
            : t('profiles.devices.displayNameHintSent', { name: device.name })
        }
        defaultValue={device.display_name ?? ''}
        error={form.errorOf('display_name')}
        autoFocus
      />
      <div className="field">
        <label htmlFor={fieldId('kind')}>{LABELS.kind}</label>
        <select id={fieldId('kind')} name="kind" defaultValue={device.kind}>
          {Object.entries(KINDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <TextareaField
        name="notes"
        label={LABELS.notes}
        rows={3}
        defaultValue={device.notes}
        error={form.errorOf('notes')}
      />
      <div className="actions">
        <SubmitButton pending={form.pending} busyText={t('common.saving')}>
          {t('profiles.devices.save')}
        </SubmitButton>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function DeviceCard({ profileId, device }: { profileId: string; device: Device }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const forget = useMutation({
    mutationFn: () => api.profiles.devices.forget(profileId, device.id),
    onSuccess: () => profilesInvalidations.devicesChanged(queryClient, profileId),
  });
  return (
    <li aria-label={device.label}>
      <h3 className="card-title">{device.label}</h3>
      <dl className="facts">
        <dt>{t('profiles.devices.kind')}</dt>
        <dd>{KINDS[device.kind] ?? device.kind}</dd>
        <dt>{t('profiles.devices.id')}</dt>
        <dd>
          <code>{device.id}</code>
        </dd>
        <dt>{t('profiles.devices.connectsWith')}</dt>
        <dd>
          {device.transport_last === null
            ? '—'
            : (TRANSPORTS[device.transport_last] ?? device.transport_last)}
          {device.identification === 'sni' ? ` ${t('profiles.devices.namedInSni')}` : ''}
          {device.identification === 'doh_path' ? ` ${t('profiles.devices.namedInPath')}` : ''}
        </dd>
        <dt>{t('profiles.devices.lastSeen')}</dt>
        <dd>
          <DateTime value={device.last_seen} /> ({t('profiles.devices.first')}{' '}
          <DateTime value={device.first_seen} />)
        </dd>
        <dt>{t('profiles.devices.last24h')}</dt>
        <dd>
          {device.queries_24h === null
            ? t('profiles.devices.notAvailable')
            : t('profiles.devices.counts', {
                queries: formatNumber(device.queries_24h),
                blocked: formatNumber(device.blocked_24h ?? 0),
              })}
        </dd>
        {device.notes !== '' && (
          <>
            <dt>{t('profiles.devices.notes')}</dt>
            <dd className="notes">{device.notes}</dd>
          </>
        )}
      </dl>
      {editing ? (
        <DeviceEditor profileId={profileId} device={device} onDone={() => setEditing(false)} />
      ) : (
        <div className="actions">
          <button
            type="button"
            onClick={() => setEditing(true)}
            aria-label={t('profiles.devices.edit', { name: device.label })}
          >
            {t('profiles.devices.editButton')}
          </button>
          <Link href={`/profiles/${profileId}/logs?device=${encodeURIComponent(device.id)}`}>
            {t('profiles.list.logsOf', { name: device.label })}
          </Link>
          <ConfirmedAction
            label={t('profiles.devices.forget')}
            ariaLabel={t('profiles.devices.forgetOne', { name: device.label })}
            confirmLabel={t('profiles.devices.forgetYes', { name: device.label })}
            pending={forget.isPending}
            onConfirm={() => forget.mutate()}
            inline
          />
        </div>
      )}
      {forget.error !== null && <ProblemDisplay problem={problemOf(forget.error)} />}
    </li>
  );
}

function Devices({ profile }: { profile: Profile }) {
  const devices = useQuery(profilesQueries.devices(profile.id));
  return (
    <>
      <p>{t('profiles.devices.intro')}</p>
      {devices.isPending ? (
        <p aria-busy="true">{t('profiles.devices.loading')}</p>
      ) : devices.isError ? (
        <ProblemDisplay problem={problemOf(devices.error)} onRetry={() => void devices.refetch()} />
      ) : devices.data.length === 0 ? (
        <p>{t('profiles.devices.none')}</p>
      ) : (
        <ul className="card-list" aria-label={t('profiles.devices.title')}>
          {devices.data.map((device) => (
            <DeviceCard key={device.id} profileId={profile.id} device={device} />
          ))}
        </ul>
      )}
    </>
  );
}

/** The devices the resolvers have seen: rename, kind, notes, forget. */
export default function DevicesPage() {
  return (
    <ProfileFrame title={t('profiles.devices.title')}>
      {(profile) => <Devices profile={profile} />}
    </ProfileFrame>
  );
}
