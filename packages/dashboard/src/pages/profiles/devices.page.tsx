import type { Device, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { fieldId } from '../../forms/field-id.js';
import { knownValue } from '../../forms/known-value.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from './profile-frame.js';
import { profileKey } from './use-profile.js';

const KINDS: Readonly<Record<Device['kind'], string>> = {
  phone: 'Phone',
  laptop: 'Laptop or computer',
  tv: 'TV or media player',
  router: 'Router',
  other: 'Other',
};
const TRANSPORTS: Readonly<Record<string, string>> = { doh: 'DoH', doh3: 'DoH3', dot: 'DoT', doq: 'DoQ' };
const LABELS = { display_name: 'Name shown', kind: 'Kind', notes: 'Notes' };
const number = new Intl.NumberFormat();

function devicesKey(id: string) {
  return [...profileKey(id), 'devices'] as const;
}

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
        void queryClient.invalidateQueries({ queryKey: devicesKey(profileId) });
        onDone();
      },
    },
  );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={`Edit ${device.label}`}>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      <TextField
        name="display_name"
        label={LABELS.display_name}
        hint={`Leave empty to show the name the device sends${device.name === '' ? '' : ` (${device.name})`}.`}
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
        <SubmitButton pending={form.pending} busyText="Saving…">
          Save device
        </SubmitButton>
        <button type="button" onClick={onDone}>
          Cancel
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
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: devicesKey(profileId) }),
  });
  return (
    <li aria-label={device.label}>
      <h3 className="card-title">{device.label}</h3>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{KINDS[device.kind] ?? device.kind}</dd>
        <dt>Id</dt>
        <dd>
          <code>{device.id}</code>
        </dd>
        <dt>Connects with</dt>
        <dd>
          {device.transport_last === null
            ? '—'
            : (TRANSPORTS[device.transport_last] ?? device.transport_last)}
          {device.identification === 'sni' ? ' (named in the TLS host)' : ''}
          {device.identification === 'doh_path' ? ' (named in the DoH path)' : ''}
        </dd>
        <dt>Last seen</dt>
        <dd>
          <DateTime value={device.last_seen} /> (first <DateTime value={device.first_seen} />)
        </dd>
        <dt>Last 24 hours</dt>
        <dd>
          {device.queries_24h === null
            ? 'not available'
            : `${number.format(device.queries_24h)} queries, ${number.format(device.blocked_24h ?? 0)} blocked`}
        </dd>
        {device.notes !== '' && (
          <>
            <dt>Notes</dt>
            <dd className="notes">{device.notes}</dd>
          </>
        )}
      </dl>
      {editing ? (
        <DeviceEditor profileId={profileId} device={device} onDone={() => setEditing(false)} />
      ) : (
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${device.label}`}>
            Edit
          </button>
          <Link href={`/profiles/${profileId}/logs?device=${encodeURIComponent(device.id)}`}>
            Logs of {device.label}
          </Link>
          <ConfirmedAction
            label="Forget"
            ariaLabel={`Forget ${device.label}`}
            confirmLabel={`Yes, forget ${device.label}`}
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
  const devices = useQuery({
    queryKey: devicesKey(profile.id),
    queryFn: () => api.profiles.devices.list(profile.id, { limit: 200 }).toArray(),
  });
  return (
    <>
      <p>
        Devices appear once they query with their name in the DoT host or DoH path (see the overview).
        Forgetting one removes its name, kind and notes; its logs stay, and it appears as new when seen again.
      </p>
      {devices.isPending ? (
        <p aria-busy="true">Loading the devices…</p>
      ) : devices.isError ? (
        <ProblemDisplay problem={problemOf(devices.error)} onRetry={() => void devices.refetch()} />
      ) : devices.data.length === 0 ? (
        <p>No device has been seen yet.</p>
      ) : (
        <ul className="card-list" aria-label="Devices">
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
  return <ProfileFrame title="Devices">{(profile) => <Devices profile={profile} />}</ProfileFrame>;
}
