import type { LinkedIp, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { profilesInvalidations, profilesKeys, profilesQueries } from '../../api/profiles.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { CopyableValue } from './copyable-value.js';
import { ProfileFrame } from './profile-frame.js';

/**
 * A DDNS slot's update URL, or a pending claim's proof URL (the same URL): shown on request (it is a
 * credential), copyable, and replaceable.
 */
function DdnsUrl({ profileId, link }: { profileId: string; link: LinkedIp }) {
  const [shown, setShown] = useState(false);
  const queryClient = useQueryClient();
  const url = useQuery(profilesQueries.ddnsUrl(profileId, link.id, shown));
  const rotate = useMutation({
    mutationFn: () => api.profiles.linkedIps.rotateDdns(profileId, link.id),
    onSuccess: (rotated) => {
      queryClient.setQueryData(profilesKeys.ddnsUrl(profileId, link.id), rotated);
      setShown(true);
    },
  });
  const label = link.ip ?? t('profiles.linkedIps.theEmptySlot');
  return (
    <div className="ddns">
      {!shown ? (
        <button
          type="button"
          onClick={() => setShown(true)}
          aria-label={t('profiles.linkedIps.showUrlOf', { name: label })}
        >
          {t('profiles.linkedIps.showUrl')}
        </button>
      ) : url.isPending ? (
        <p aria-busy="true">{t('profiles.linkedIps.loadingUrl')}</p>
      ) : url.isError ? (
        <ProblemDisplay problem={problemOf(url.error)} onRetry={() => void url.refetch()} />
      ) : (
        <>
          <p className="hint">{t('profiles.linkedIps.urlHint')}</p>
          <CopyableValue name={t('profiles.linkedIps.urlName')} value={url.data.update_url} />
        </>
      )}
      {rotate.error !== null && <ProblemDisplay problem={problemOf(rotate.error)} />}
      {rotate.isSuccess && (
        <p className="notice" role="status">
          {t('profiles.linkedIps.rotated')}
        </p>
      )}
      <ConfirmedAction
        // A new URL starts the button afresh.
        key={rotate.data?.update_url ?? 'first'}
        label={t('profiles.linkedIps.rotate')}
        ariaLabel={t('profiles.linkedIps.rotateOf', { name: label })}
        confirmLabel={t('profiles.linkedIps.rotateConfirm')}
        warning={t('profiles.linkedIps.rotateWarning')}
        danger={false}
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
    </div>
  );
}

function LinkedIps({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const links = useQuery(profilesQueries.linkedIps(profile.id));
  const refresh = () => profilesInvalidations.linkedIpsChanged(queryClient, profile.id);
  const [ip, setIp] = useState('');
  const link = useApiForm(
    (values) => api.profiles.linkedIps.create(profile.id, { ip: values.text('ip').trim() }),
    {
      onSuccess: () => {
        setIp('');
        slot.reset();
        thisNetwork.reset();
        refresh();
      },
    },
  );
  const slot = useMutation({
    mutationFn: () => api.profiles.linkedIps.create(profile.id, { ddns: true }),
    onSuccess: () => {
      // Only this action's acknowledgement stays: an earlier "… is linked." would answer the wrong action.
      link.reset();
      thisNetwork.reset();
      refresh();
    },
  });
  const unlink = useMutation({
    mutationFn: (linkId: string) => api.profiles.linkedIps.delete(profile.id, linkId),
    onSuccess: refresh,
  });
  // The caller's own address, linked by a request that comes from it: proven, so active at once.
  const thisNetwork = useMutation({
    mutationFn: async () => {
      const caller = await api.meta.ip();
      if (caller.version !== 4) return { caller, link: undefined };
      return { caller, link: await api.profiles.linkedIps.create(profile.id, { ip: caller.ip }) };
    },
    onSuccess: () => {
      link.reset();
      slot.reset();
      refresh();
    },
  });
  return (
    <>
      <p>{t('profiles.linkedIps.intro')}</p>
      {links.isPending ? (
        <p aria-busy="true">{t('profiles.linkedIps.loading')}</p>
      ) : links.isError ? (
        <ProblemDisplay problem={problemOf(links.error)} onRetry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <p>{t('profiles.linkedIps.none')}</p>
      ) : (
        <ul className="card-list" aria-label={t('profiles.linkedIps.list')}>
          {links.data.map((entry) => (
            <li key={entry.id}>
              <span className="card-title">{entry.ip ?? t('profiles.linkedIps.waiting')}</span>
              {entry.ddns && (
                <>
                  {' '}
                  <span className="badge">{t('profiles.linkedIps.ddnsBadge')}</span>
                </>
              )}
              {entry.state === 'pending' && entry.ip !== null && (
                <>
                  {' '}
                  <span className="badge">{t('profiles.linkedIps.pendingBadge')}</span>
                </>
              )}
              <p className="hint">
                {t('profiles.linkedIps.linkedAt')} <DateTime value={entry.created_at} />,{' '}
                {t('profiles.linkedIps.changedAt')} <DateTime value={entry.updated_at} />.
              </p>
              {entry.state === 'pending' && entry.ip !== null && (
                <p className="hint">{t('profiles.linkedIps.pendingHint')}</p>
              )}
              {(entry.ddns || (entry.state === 'pending' && entry.ip !== null)) && (
                <DdnsUrl profileId={profile.id} link={entry} />
              )}
              <button
                type="button"
                className="danger"
                onClick={() => unlink.mutate(entry.id)}
                disabled={unlink.isPending}
                aria-label={t('profiles.linkedIps.unlinkOne', {
                  name: entry.ip ?? t('profiles.linkedIps.theEmptyDdnsSlot'),
                })}
              >
                {t('profiles.linkedIps.unlink')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {unlink.error !== null && <ProblemDisplay problem={problemOf(unlink.error)} />}
      <section aria-labelledby="link-network">
        <h2 id="link-network">{t('profiles.linkedIps.thisNetwork')}</h2>
        <p>{t('profiles.linkedIps.thisNetworkIntro')}</p>
        {thisNetwork.error !== null && <ProblemDisplay problem={problemOf(thisNetwork.error)} />}
        {thisNetwork.data?.link !== undefined && (
          <p className="notice" role="status">
            {t('profiles.linkedIps.linked', { ip: thisNetwork.data.link.ip ?? '' })}
          </p>
        )}
        {thisNetwork.data !== undefined && thisNetwork.data.link === undefined && (
          <p className="warning" role="status">
            {t('profiles.linkedIps.ipv6', { ip: thisNetwork.data.caller.ip })}
          </p>
        )}
        <button type="button" onClick={() => thisNetwork.mutate()} disabled={thisNetwork.isPending}>
          {t('profiles.linkedIps.thisNetwork')}
        </button>
      </section>
      <section aria-labelledby="link-address">
        <h2 id="link-address">{t('profiles.linkedIps.anAddress')}</h2>
        {link.problem !== null && (
          <ProblemDisplay problem={link.problem} fieldLabels={{ ip: t('profiles.linkedIps.ip') }} focus />
        )}
        {link.result !== undefined && link.problem === null && link.result.state === 'active' && (
          <p className="notice" role="status">
            {t('profiles.linkedIps.linked', { ip: link.result.ip ?? '' })}
          </p>
        )}
        {link.result?.proof_url !== undefined && link.problem === null && (
          <div className="notice" role="status">
            <p>{t('profiles.linkedIps.claimed', { ip: link.result.ip ?? '' })}</p>
            <CopyableValue name={t('profiles.linkedIps.proofUrl')} value={link.result.proof_url} />
          </div>
        )}
        <form onSubmit={link.onSubmit} noValidate>
          <TextField
            name="ip"
            label={t('profiles.linkedIps.ip')}
            hint={t('profiles.linkedIps.ipHint')}
            inputMode="decimal"
            autoComplete="off"
            error={link.errorOf('ip')}
            value={ip}
            onChange={(event) => setIp(event.target.value)}
          />
          <div className="actions">
            <SubmitButton pending={link.pending} busyText={t('profiles.linkedIps.linking')}>
              {t('profiles.linkedIps.linkAddress')}
            </SubmitButton>
          </div>
        </form>
        <h3>{t('profiles.linkedIps.changing')}</h3>
        <p>{t('profiles.linkedIps.changingIntro')}</p>
        {slot.error !== null && <ProblemDisplay problem={problemOf(slot.error)} />}
        {slot.isSuccess && (
          <p className="notice" role="status">
            {t('profiles.linkedIps.slotCreated')}
          </p>
        )}
        <button type="button" onClick={() => slot.mutate()} disabled={slot.isPending}>
          {t('profiles.linkedIps.createSlot')}
        </button>
      </section>
    </>
  );
}

/** Linked IPv4 addresses for plain DNS, with DDNS update URLs and their rotation. */
export default function LinkedIpsPage() {
  return (
    <ProfileFrame title={t('profiles.linkedIps.title')}>
      {(profile) => <LinkedIps profile={profile} />}
    </ProfileFrame>
  );
}
