import type { LinkedIp, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { CopyableValue } from './copyable-value.js';
import { ProfileFrame } from './profile-frame.js';
import { profileKey } from './use-profile.js';

function linkedIpsKey(id: string) {
  return [...profileKey(id), 'linked-ips'] as const;
}

/**
 * A DDNS slot's update URL, or a pending claim's proof URL (the same URL): shown on request (it is a
 * credential), copyable, and replaceable.
 */
function DdnsUrl({ profileId, link }: { profileId: string; link: LinkedIp }) {
  const [shown, setShown] = useState(false);
  const queryClient = useQueryClient();
  const key = [...linkedIpsKey(profileId), link.id, 'ddns'] as const;
  const url = useQuery({
    queryKey: key,
    queryFn: () => api.profiles.linkedIps.ddnsUrl(profileId, link.id),
    enabled: shown,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const rotate = useMutation({
    mutationFn: () => api.profiles.linkedIps.rotateDdns(profileId, link.id),
    onSuccess: (rotated) => {
      queryClient.setQueryData(key, rotated);
      setShown(true);
    },
  });
  const label = link.ip ?? 'the empty slot';
  return (
    <div className="ddns">
      {!shown ? (
        <button
          type="button"
          onClick={() => setShown(true)}
          aria-label={`Show the DDNS update URL of ${label}`}
        >
          Show the DDNS update URL
        </button>
      ) : url.isPending ? (
        <p aria-busy="true">Loading the update URL…</p>
      ) : url.isError ? (
        <ProblemDisplay problem={problemOf(url.error)} onRetry={() => void url.refetch()} />
      ) : (
        <>
          <p className="hint">
            Have your router (or a scheduled <code>curl</code>) call this address from the network, now and
            whenever its public address changes: each call proves the address it comes from. Keep it secret:
            anyone with it can move this link.
          </p>
          <CopyableValue name="DDNS update URL" value={url.data.update_url} />
        </>
      )}
      {rotate.error !== null && <ProblemDisplay problem={problemOf(rotate.error)} />}
      {rotate.isSuccess && (
        <p className="notice" role="status">
          New update URL made: the old one stopped working.
        </p>
      )}
      <ConfirmedAction
        // A new URL starts the button afresh.
        key={rotate.data?.update_url ?? 'first'}
        label="Rotate the URL"
        ariaLabel={`Rotate the DDNS update URL of ${label}`}
        confirmLabel="Replace the URL"
        warning="The old URL stops at once."
        danger={false}
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
    </div>
  );
}

function LinkedIps({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const links = useQuery({
    queryKey: linkedIpsKey(profile.id),
    queryFn: () => api.profiles.linkedIps.list(profile.id).toArray(),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: linkedIpsKey(profile.id) });
    void queryClient.invalidateQueries({ queryKey: profileKey(profile.id), exact: true });
  };
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
      <p>
        Devices that cannot use encrypted DNS (older TVs, consoles, a whole router) send plain DNS to the
        service’s IPv4 addresses. The service knows them by the public address they come from: link it here.
        An address is used only once it is proven by a request from it, so link a network from a device on it,
        or give the router a DDNS update URL.
      </p>
      {links.isPending ? (
        <p aria-busy="true">Loading the linked addresses…</p>
      ) : links.isError ? (
        <ProblemDisplay problem={problemOf(links.error)} onRetry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <p>No address is linked.</p>
      ) : (
        <ul className="card-list" aria-label="Linked addresses">
          {links.data.map((entry) => (
            <li key={entry.id}>
              <span className="card-title">{entry.ip ?? 'Waiting for its first DDNS update'}</span>
              {entry.ddns && (
                <>
                  {' '}
                  <span className="badge">DDNS</span>
                </>
              )}
              {entry.state === 'pending' && entry.ip !== null && (
                <>
                  {' '}
                  <span className="badge">Pending proof</span>
                </>
              )}
              <p className="hint">
                Linked <DateTime value={entry.created_at} />, last changed{' '}
                <DateTime value={entry.updated_at} />.
              </p>
              {entry.state === 'pending' && entry.ip !== null && (
                <p className="hint">
                  Not used yet: open its proof URL from that network within 24 hours of linking, or the claim
                  expires.
                </p>
              )}
              {(entry.ddns || (entry.state === 'pending' && entry.ip !== null)) && (
                <DdnsUrl profileId={profile.id} link={entry} />
              )}
              <button
                type="button"
                className="danger"
                onClick={() => unlink.mutate(entry.id)}
                disabled={unlink.isPending}
                aria-label={`Unlink ${entry.ip ?? 'the empty DDNS slot'}`}
              >
                Unlink
              </button>
            </li>
          ))}
        </ul>
      )}
      {unlink.error !== null && <ProblemDisplay problem={problemOf(unlink.error)} />}
      <section aria-labelledby="link-network">
        <h2 id="link-network">Link this network</h2>
        <p>Links the public address this browser comes from, proven by this very request.</p>
        {thisNetwork.error !== null && <ProblemDisplay problem={problemOf(thisNetwork.error)} />}
        {thisNetwork.data?.link !== undefined && (
          <p className="notice" role="status">
            {thisNetwork.data.link.ip} is linked.
          </p>
        )}
        {thisNetwork.data !== undefined && thisNetwork.data.link === undefined && (
          <p className="warning" role="status">
            You are connected over IPv6 ({thisNetwork.data.caller.ip}); only IPv4 addresses can be linked.
          </p>
        )}
        <button type="button" onClick={() => thisNetwork.mutate()} disabled={thisNetwork.isPending}>
          Link this network
        </button>
      </section>
      <section aria-labelledby="link-address">
        <h2 id="link-address">Link an address</h2>
        {link.problem !== null && (
          <ProblemDisplay problem={link.problem} fieldLabels={{ ip: 'IPv4 address' }} focus />
        )}
        {link.result !== undefined && link.problem === null && link.result.state === 'active' && (
          <p className="notice" role="status">
            {link.result.ip} is linked.
          </p>
        )}
        {link.result?.proof_url !== undefined && link.problem === null && (
          <div className="notice" role="status">
            <p>
              {link.result.ip} is claimed but not proven: this browser is not on that network. Open this proof
              URL from the network (a device on it, or its router) within 24 hours; until then it is not used.
            </p>
            <CopyableValue name="Proof URL" value={link.result.proof_url} />
          </div>
        )}
        <form onSubmit={link.onSubmit} noValidate>
          <TextField
            name="ip"
            label="IPv4 address"
            hint="The network’s public address, for example 203.0.113.7. Linked from elsewhere, it waits for its proof."
            inputMode="decimal"
            autoComplete="off"
            error={link.errorOf('ip')}
            value={ip}
            onChange={(event) => setIp(event.target.value)}
          />
          <div className="actions">
            <SubmitButton pending={link.pending} busyText="Linking…">
              Link this address
            </SubmitButton>
          </div>
        </form>
        <h3>An address that changes</h3>
        <p>
          Create an empty slot, then give its update URL to your router’s dynamic DNS client: each call moves
          the link to the address it comes from.
        </p>
        {slot.error !== null && <ProblemDisplay problem={problemOf(slot.error)} />}
        {slot.isSuccess && (
          <p className="notice" role="status">
            A DDNS slot is created: show its update URL above and give it to your router.
          </p>
        )}
        <button type="button" onClick={() => slot.mutate()} disabled={slot.isPending}>
          Create a DDNS slot
        </button>
      </section>
    </>
  );
}

/** Linked IPv4 addresses for plain DNS, with DDNS update URLs and their rotation. */
export default function LinkedIpsPage() {
  return <ProfileFrame title="Linked IPs">{(profile) => <LinkedIps profile={profile} />}</ProfileFrame>;
}
