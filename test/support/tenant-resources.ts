import { DeviceSightings } from '@svc/domain';
import { type DataExportScheduler, DataExportSchedulerToken } from '@svc/http-server';
import { createAccount, type TestAccount } from './accounts.js';
import type { ApiHarness } from './api-harness.js';
import { type RawAnswer, send } from './http.js';
import { type CreationOptionsSeen, SoftwareAuthenticator } from './software-authenticator.js';

/** The kinds of resource a path parameter names, each owned by one organisation (or account). */
export type ResourceKind =
  | 'profile'
  | 'linkedIp'
  | 'device'
  | 'node'
  | 'listReport'
  | 'apiToken'
  | 'session'
  | 'passkey'
  | 'dataExport'
  | 'account'
  | 'member'
  | 'invitation'
  | 'organisation';

/** An account with one real resource of every kind, ids as the API shows them (several where states differ). */
export interface TenantWithResources {
  account: TestAccount;
  /** Cookie header of the account's signed-in session. */
  session: Record<string, string>;
  /** A node token of a node enrolled in the account's profile. */
  nodeToken: string;
  ids: Record<ResourceKind, string[]>;
}

const expectStatus = (answer: RawAnswer, status: number, what: string): RawAnswer => {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
  return answer;
};

/**
 * The data export job, stopped: exports are built when a test runs it, so that one can stay pending for as
 * long as the test needs (its run builds every export waiting, whoever's).
 */
async function exportJob(api: ApiHarness): Promise<DataExportScheduler> {
  const job = await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
  await job.stop();
  return job;
}

async function startDataExport(api: ApiHarness, session: Record<string, string>): Promise<string> {
  const answer = expectStatus(
    await send(`${api.url}/v1/auth/me/exports`, { method: 'POST', headers: session }),
    202,
    'POST /v1/auth/me/exports',
  );
  return (answer.json as { export: { id: string } }).export.id;
}

/** Starts a second data export of `tenant` that stays pending (nothing runs the stopped job again). */
export async function withPendingDataExport(api: ApiHarness, tenant: TenantWithResources): Promise<void> {
  await exportJob(api);
  tenant.ids.dataExport.push(await startDataExport(api, tenant.session));
}

/**
 * Signs an account up and gives it a profile with a linked address and a DDNS slot, a device sighted by the
 * resolvers (through the DeviceSightings binding, as the edge path records them), an enrolled node, a list
 * report, a pending invitation to its organisation, its API token and session, a passkey (a genuine WebAuthn ceremony with a software authenticator),
 * and a data export, built (ready).
 */
export async function tenantWithResources(
  api: ApiHarness,
  { ip, deviceName }: { ip: string; deviceName: string },
): Promise<TenantWithResources> {
  const account = await createAccount(api);
  const session = { cookie: `svc_session=${account.cookie}` };
  const call = async <T>(
    method: string,
    path: string,
    status: number,
    body?: object,
    headers = account.auth,
  ) =>
    expectStatus(
      await send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }),
      status,
      `${method} ${path}`,
    ).json as T;

  const { account: me } = await call<{ account: { id: string; org_id: string } }>('GET', '/v1/auth/me', 200);
  const { id: profileId } = await call<{ id: string }>('POST', '/v1/profiles', 201, { name: 'Owned' });
  const profilePath = `/v1/profiles/${profileId}`;
  const staticLink = await call<{ id: string }>('POST', `${profilePath}/linked-ips`, 201, { ip });
  const ddnsLink = await call<{ id: string }>('POST', `${profilePath}/linked-ips`, 201, { ddns: true });

  const sightings = await api.container.getAsync<DeviceSightings>(DeviceSightings);
  await sightings.record([
    { profileId, name: deviceName, identification: 'doh_path', transport: 'doh', seenAt: api.clock.now() },
  ]);
  const { devices } = await call<{ devices: { id: string }[] }>('GET', `${profilePath}/devices`, 200);

  const created = await call<{ enrolment_code: string }>('POST', `${profilePath}/nodes`, 201, {
    name: 'home-rack',
  });
  const enrolled = await call<{ node: { id: string }; node_token: string }>(
    'POST',
    '/v1/nodes/enrol',
    201,
    { enrolment_code: created.enrolment_code },
    {},
  );

  await call('POST', `${profilePath}/list-reports`, 202, {
    domain: 'ads.example',
    list_id: 1,
    kind: 'false_positive',
  });
  const { reports } = await call<{ reports: { id: string }[] }>('GET', `${profilePath}/list-reports`, 200);
  const { tokens } = await call<{ tokens: { id: string }[] }>('GET', '/v1/tokens', 200);
  const { sessions } = await call<{ sessions: { id: string }[] }>(
    'GET',
    '/v1/auth/sessions',
    200,
    undefined,
    session,
  );

  const options = await call<CreationOptionsSeen>(
    'POST',
    '/v1/auth/passkeys/registration/options',
    200,
    undefined,
    session,
  );
  const response = new SoftwareAuthenticator().register(options);
  const { passkey } = await call<{ passkey: { id: string } }>(
    'POST',
    '/v1/auth/passkeys/registration',
    201,
    { response },
    session,
  );

  const invitation = await call<{ id: string }>(
    'POST',
    '/v1/org/invitations',
    201,
    { email: `invited-${me.id}@example.test`, role: 'viewer' },
    session,
  );

  const built = await startDataExport(api, session);
  await (await exportJob(api)).runOnce();
  api.clock.advance(1_000);

  return {
    account,
    session,
    nodeToken: enrolled.node_token,
    ids: {
      profile: [profileId],
      linkedIp: [staticLink.id, ddnsLink.id],
      device: devices.map((device) => device.id),
      node: [enrolled.node.id],
      listReport: reports.map((report) => report.id),
      apiToken: tokens.map((token) => token.id),
      session: sessions.map((entry) => entry.id),
      passkey: [passkey.id],
      dataExport: [built],
      account: [me.id],
      member: [me.id],
      invitation: [invitation.id],
      organisation: [me.org_id],
    },
  };
}
