import type { Profile, Setup } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AppleDownload } from './apple-download.js';
import { CopyableValue } from './copyable-value.js';
import { ProfileFrame } from './profile-frame.js';
import { useProfileId } from './use-profile.js';

/** The QR codes, with their encoder, load after the addresses: the page is usable before they are drawn. */
const PhoneSetup = lazy(() => import('./phone-setup.js'));

function Steps({ steps }: { steps: readonly string[] }) {
  return (
    <ol>
      {steps.map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
}

/** The profile's addresses, each with a copy button. */
function Endpoints({ setup }: { setup: Setup }) {
  return (
    <section aria-labelledby="endpoints">
      <h2 id="endpoints">Addresses</h2>
      <dl className="facts">
        <dt>DNS-over-HTTPS (DoH)</dt>
        <dd>
          <CopyableValue name="DoH URL" value={setup.doh} />
        </dd>
        <dt>DNS-over-TLS (DoT)</dt>
        <dd>
          <CopyableValue name="DoT host name" value={setup.dot} />
          <p className="hint">
            To see a device by name in the logs, use <code>{setup.dot_device}</code> with{' '}
            <code>&lt;device&gt;</code> replaced by its name.
          </p>
        </dd>
        <dt>DNS-over-QUIC (DoQ)</dt>
        <dd>
          <CopyableValue name="DoQ address" value={setup.doq} />
        </dd>
        {setup.ipv6.length > 0 && (
          <>
            <dt>IPv6</dt>
            <dd>
              {setup.ipv6.map((address, index) => (
                <CopyableValue key={address} name={`IPv6 address ${index + 1}`} value={address} />
              ))}
            </dd>
          </>
        )}
        {setup.ipv4.length > 0 && (
          <>
            <dt>IPv4 (needs a linked IP)</dt>
            <dd>
              {setup.ipv4.map((address, index) => (
                <CopyableValue key={address} name={`IPv4 address ${index + 1}`} value={address} />
              ))}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** How to point each kind of device at the profile, with the API's steps for its values. */
function Platforms({ profile, setup }: { profile: Profile; setup: Setup }) {
  const pageUrl = `${window.location.origin}/profiles/${profile.id}`;
  return (
    <section aria-labelledby="set-up">
      <h2 id="set-up">Set up a device</h2>
      <details open>
        <summary>iPhone, iPad and Mac</summary>
        <p>Install the configuration profile: it sets DNS-over-HTTPS for the whole device.</p>
        <AppleDownload profileId={profile.id} profileName={profile.name} />
        <Steps steps={setup.apple.steps.slice(1)} />
      </details>
      <details>
        <summary>Android</summary>
        <CopyableValue name="Private DNS host name" value={setup.android.private_dns_host} />
        <Steps steps={setup.android.steps} />
      </details>
      <details>
        <summary>Windows</summary>
        <CopyableValue name="DoH template" value={setup.windows.doh_template} />
        <Steps steps={setup.windows.steps} />
      </details>
      <details>
        <summary>Linux (systemd-resolved)</summary>
        <pre className="secret">{setup.linux.resolved_conf}</pre>
        <Steps steps={setup.linux.steps} />
      </details>
      <details>
        <summary>Browsers</summary>
        <Steps steps={setup.browsers.steps} />
      </details>
      <details>
        <summary>Routers and plain DNS</summary>
        <Steps steps={setup.routers.steps} />
        <p>
          Plain DNS cannot carry the profile: the network is recognised by its public address, once a request
          from it proves it. Link it from a device on the network, or give the router the linked IP’s DDNS
          update URL: each call the router makes proves its current address.{' '}
          <Link href={`/profiles/${profile.id}/linked-ips`}>Link this network’s IP address</Link>.
        </p>
      </details>
      <h3>On a phone</h3>
      <Suspense fallback={<p aria-busy="true">Drawing the QR codes…</p>}>
        <PhoneSetup pageUrl={pageUrl} androidHost={setup.android.private_dns_host} />
      </Suspense>
    </section>
  );
}

/** The setup values of profile `id`; they follow from its id and endpoints, which never change. */
function useSetup(id: string) {
  return useQuery({
    queryKey: ['profiles', id, 'setup'],
    queryFn: () => api.profiles.setup(id),
    staleTime: 300_000,
  });
}

function Overview({ profile, setup }: { profile: Profile; setup: ReturnType<typeof useSetup> }) {
  return (
    <>
      <p>
        Version {profile.version}, changed <DateTime value={profile.updated_at} />.
      </p>
      {setup.isPending ? (
        <p aria-busy="true">Loading the setup values…</p>
      ) : setup.isError ? (
        <ProblemDisplay problem={problemOf(setup.error)} onRetry={() => void setup.refetch()} />
      ) : (
        <>
          <Endpoints setup={setup.data} />
          <Platforms profile={profile} setup={setup.data} />
        </>
      )}
    </>
  );
}

/** A profile's overview: its addresses and how to set up each kind of device. */
export default function ProfileOverviewPage() {
  // Asked together with the profile (the frame's), not after it: the page is ready one round trip sooner.
  const setup = useSetup(useProfileId());
  return (
    <ProfileFrame title={undefined}>{(profile) => <Overview profile={profile} setup={setup} />}</ProfileFrame>
  );
}
