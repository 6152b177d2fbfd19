import type { Profile, Setup } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { profilesQueries } from '../../api/profiles.queries.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AppleDownload } from './apple-download.js';
import { CopyableValue } from './copyable-value.js';
import { PauseControl } from './pause-control.js';
import { ProfileFrame } from './profile-frame.js';
import { ScheduleSummary } from './schedule-summary.js';
import { setupSteps } from './setup-steps.js';
import './profiles.css';
import { useProfileId } from './use-profile.js';

/** The QR codes, with their encoder, load after the addresses: the page is usable before they are drawn. */
const PhoneSetup = lazy(() => import('./phone-setup.js'));

function Steps({ steps }: { steps: readonly string[] }) {
  return (
    <ol className="breakable">
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
      <h2 id="endpoints">{t('profiles.overview.addresses')}</h2>
      <dl className="facts">
        <dt>{t('profiles.overview.doh')}</dt>
        <dd>
          <CopyableValue name={t('profiles.overview.dohName')} value={setup.doh} />
        </dd>
        <dt>{t('profiles.overview.dot')}</dt>
        <dd>
          <CopyableValue name={t('profiles.overview.dotName')} value={setup.dot} />
          <p className="hint breakable">{t('profiles.overview.dotDevice', { host: setup.dot_device })}</p>
        </dd>
        <dt>{t('profiles.overview.doq')}</dt>
        <dd>
          <CopyableValue name={t('profiles.overview.doqName')} value={setup.doq} />
        </dd>
        {setup.ipv6.length > 0 && (
          <>
            <dt>{t('profiles.overview.ipv6')}</dt>
            <dd>
              {setup.ipv6.map((address, index) => (
                <CopyableValue
                  key={address}
                  name={t('profiles.overview.ipv6Name', { index: index + 1 })}
                  value={address}
                />
              ))}
            </dd>
          </>
        )}
        {setup.ipv4.length > 0 && (
          <>
            <dt>{t('profiles.overview.ipv4')}</dt>
            <dd>
              {setup.ipv4.map((address, index) => (
                <CopyableValue
                  key={address}
                  name={t('profiles.overview.ipv4Name', { index: index + 1 })}
                  value={address}
                />
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
  const steps = setupSteps(setup);
  return (
    <section aria-labelledby="set-up">
      <h2 id="set-up">{t('profiles.overview.setUp')}</h2>
      <details open>
        <summary>{t('profiles.overview.apple')}</summary>
        <p>{t('profiles.overview.appleIntro')}</p>
        <AppleDownload profileId={profile.id} profileName={profile.name} />
        <Steps steps={steps.apple} />
      </details>
      <details>
        <summary>{t('profiles.overview.android')}</summary>
        <CopyableValue name={t('profiles.overview.androidName')} value={setup.android.private_dns_host} />
        <Steps steps={steps.android} />
      </details>
      <details>
        <summary>{t('profiles.overview.windows')}</summary>
        <CopyableValue name={t('profiles.overview.windowsName')} value={setup.windows.doh_template} />
        <Steps steps={steps.windows} />
      </details>
      <details>
        <summary>{t('profiles.overview.linux')}</summary>
        <pre className="secret">{setup.linux.resolved_conf}</pre>
        <Steps steps={steps.linux} />
      </details>
      <details>
        <summary>{t('profiles.overview.browsers')}</summary>
        <Steps steps={steps.browsers} />
      </details>
      <details>
        <summary>{t('profiles.overview.routers')}</summary>
        <Steps steps={steps.routers} />
        <p>
          {t('profiles.overview.routersNote')}{' '}
          <Link href={`/profiles/${profile.id}/linked-ips`}>{t('profiles.overview.linkNetwork')}</Link>.
        </p>
      </details>
      <h3>{t('profiles.overview.onPhone')}</h3>
      <Suspense fallback={<p aria-busy="true">{t('profiles.overview.drawingQr')}</p>}>
        <PhoneSetup pageUrl={pageUrl} androidHost={setup.android.private_dns_host} />
      </Suspense>
    </section>
  );
}

/** The setup values of profile `id`; they follow from its id and endpoints, which never change. */
function useSetup(id: string) {
  return useQuery(profilesQueries.setup(id));
}

function Overview({ profile, setup }: { profile: Profile; setup: ReturnType<typeof useSetup> }) {
  return (
    <>
      <p>
        {t('profiles.overview.version', {
          version: profile.version,
          changed: formatDateTime(profile.updated_at),
        })}
      </p>
      <PauseControl profile={profile} />
      <ScheduleSummary profile={profile} />
      {setup.isPending ? (
        <p aria-busy="true">{t('profiles.overview.loadingSetup')}</p>
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
