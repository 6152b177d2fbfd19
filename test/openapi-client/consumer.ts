// A client written against types that openapi-typescript generates from the served /v1/openapi.yaml (issue
// 30). The test generates ./openapi.d.ts beside a copy of this file, compiles both with tsc (strict), then runs
// the compiled consumer against a server. Every request body below is partial: it leaves out what has a
// default, so it compiles only when the document gives request bodies in their input form.
import type { Harness, Outcome } from './consumer-harness.js';
import type { paths } from './openapi.js';

type Method = 'post' | 'put' | 'patch' | 'delete' | 'get';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;
type BodyOption<O> = JsonBody<O> extends undefined ? { body?: undefined } : { body: JsonBody<O> };
type Answer<O> = O extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202
        ? R[S] extends { content: { 'application/json': infer J } }
          ? J
          : never
        : never;
    }[keyof R]
  : never;

/** Who calls: a session cookie, an API token, a node token, or nobody. */
type Credential = { cookie: string } | { bearer: string } | null;

type Request<P extends keyof paths, M extends Method> = {
  operation: string;
  params?: Record<string, string>;
  as?: Credential;
  expected: number[];
} & BodyOption<Operation<P, M>>;

const PASSWORD = 'correct horse battery staple';

export async function exercise(harness: Harness): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];

  /** Sends one request, records how it was answered, and gives back its JSON (typed by the document). */
  async function call<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    request: Request<P, M>,
  ): Promise<{ status: number; json: Answer<Operation<P, M>> | undefined; cookie: string | undefined }> {
    const url = String(path).replace(/\{(\w+)\}/g, (_match, name: string) =>
      encodeURIComponent(request.params?.[name] ?? ''),
    );
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.as != null && 'cookie' in request.as) headers.cookie = `svc_session=${request.as.cookie}`;
    if (request.as != null && 'bearer' in request.as) headers.authorization = `Bearer ${request.as.bearer}`;
    const response = await fetch(`${harness.baseUrl}${url}`, {
      method: method.toUpperCase(),
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    const code =
      typeof parsed === 'object' && parsed !== null && 'code' in parsed && typeof parsed.code === 'string'
        ? parsed.code
        : undefined;
    outcomes.push({
      operation: request.operation,
      status: response.status,
      expected: request.expected,
      ...(code === undefined ? {} : { code }),
    });
    const json: Answer<Operation<P, M>> | undefined =
      response.status < 300 && text !== '' ? JSON.parse(text) : undefined;
    const cookie = /svc_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    return { status: response.status, json, cookie };
  }

  /** The `prefix_…` token of the newest email to `address` that carries one. */
  async function emailedToken(address: string, prefix: string, after: number): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const mails = (await harness.mailTo(address)).slice(after);
      const token = mails
        .map((mail) => new RegExp(`${prefix}_[A-Za-z0-9_-]+`).exec(mail)?.[0])
        .filter((found) => found !== undefined)
        .at(-1);
      if (token !== undefined) return token;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${prefix}_ token was emailed to ${address}`);
  }

  /** Signs an address up, verifies it from the email and signs in: its session cookie and account id. */
  async function newAccount(email: string): Promise<{ cookie: string; id: string }> {
    await call('post', '/v1/auth/signup', {
      operation: 'signup',
      body: { email, password: PASSWORD },
      expected: [202],
    });
    await call('post', '/v1/auth/resend-verification', {
      operation: 'resendVerification',
      body: { email },
      expected: [202],
    });
    const token = await emailedToken(email, 'ver', 0);
    await call('post', '/v1/auth/verify', { operation: 'verifyEmail', body: { token }, expected: [200] });
    const login = await call('post', '/v1/auth/login', {
      operation: 'login',
      body: { email, password: PASSWORD },
      expected: [200],
    });
    return { cookie: login.cookie ?? '', id: login.json?.account.id ?? '' };
  }

  // An owner, a token, and a profile with what hangs off it.
  const ownerEmail = 'owner@example.test';
  const owner = await newAccount(ownerEmail);
  const session = { cookie: owner.cookie };
  await call('post', '/v1/waitlist', {
    operation: 'joinWaitlist',
    body: { email: 'waiting@example.test' },
    // Open signup has no waitlist: 503 waitlist_unavailable, after the body was accepted.
    expected: [202, 503],
  });
  const created = await call('post', '/v1/tokens', {
    operation: 'createToken',
    as: session,
    body: {
      name: 'generated client',
      scopes: ['profiles:read', 'profiles:write', 'account:read', 'logs:read', 'analytics:read'],
    },
    expected: [201],
  });
  const token = { bearer: created.json?.secret ?? '' };
  const profile = await call('post', '/v1/profiles', {
    operation: 'createProfile',
    as: token,
    body: { name: 'Home', settings: { block_mode: 'refused', retention_days: 30 } },
    expected: [201],
  });
  const id = profile.json?.id ?? '';
  await call('patch', '/v1/profiles/{id}', {
    operation: 'updateProfile',
    as: token,
    params: { id },
    body: { settings: { ecs: 'anonymised' } },
    expected: [200],
  });
  await call('put', '/v1/profiles/{id}/rules', {
    operation: 'replaceProfileRules',
    as: token,
    params: { id },
    body: { deny: ['ads.example'] },
    expected: [200],
  });
  const catalogue = await call('get', '/v1/lists', { operation: 'listBlocklists', expected: [200] });
  const listId = catalogue.json?.lists[0]?.id ?? 1;
  await call('put', '/v1/profiles/{id}/lists', {
    operation: 'replaceProfileLists',
    as: token,
    params: { id },
    body: { lists: [listId] },
    expected: [200],
  });
  await call('put', '/v1/profiles/{id}/schedules', {
    operation: 'replaceProfileSchedules',
    as: token,
    params: { id },
    body: { schedules: [{ name: 'bedtime', windows: [{ days: ['mon'], start: '21:00', end: '07:00' }] }] },
    expected: [200],
  });
  await call('post', '/v1/profiles/{id}/pause', {
    operation: 'pauseProfile',
    as: token,
    params: { id },
    body: { minutes: 15 },
    expected: [200],
  });
  await call('post', '/v1/profiles/{id}/linked-ips', {
    operation: 'createLinkedIp',
    as: token,
    params: { id },
    body: { ip: '192.0.2.10' },
    expected: [201],
  });
  const report = await call('post', '/v1/profiles/{id}/list-reports', {
    operation: 'createListReport',
    as: token,
    params: { id },
    body: { domain: 'ads.example', list_id: listId, kind: 'false_positive' },
    expected: [202],
  });
  await call('patch', '/v1/profiles/{id}/devices/{deviceId}', {
    operation: 'updateDevice',
    as: token,
    params: { id, deviceId: 'never-seen' },
    body: { kind: 'phone' },
    // No resolver has seen a device of this new profile: the body is accepted, the device is not found.
    expected: [404],
  });
  const node = await call('post', '/v1/profiles/{id}/nodes', {
    operation: 'createNode',
    as: token,
    params: { id },
    body: { name: 'closet' },
    expected: [201],
  });
  await call('post', '/v1/nodes/enrol', {
    operation: 'enrolNode',
    body: { enrolment_code: node.json?.enrolment_code ?? '' },
    expected: [201],
  });

  // Signed webhooks: a session holds the webhooks scopes; `description` and `overlap_hours` have defaults.
  const webhook = await call('post', '/v1/webhooks', {
    operation: 'createWebhook',
    as: session,
    body: { url: 'https://hooks.invalid/generated', events: ['profile.updated'] },
    expected: [201],
  });
  const webhookId = webhook.json?.id ?? '';
  await call('patch', '/v1/webhooks/{id}', {
    operation: 'updateWebhook',
    as: session,
    params: { id: webhookId },
    body: { enabled: false },
    expected: [200],
  });
  await call('post', '/v1/webhooks/{id}/rotate-secret', {
    operation: 'rotateWebhookSecret',
    as: session,
    params: { id: webhookId },
    body: {},
    expected: [200],
  });

  // Issue 38's policies: an allowance of the new profile; the device policy and pause of a device no resolver
  // has seen (the bodies are accepted, the device is not found).
  await call('post', '/v1/profiles/{id}/allowances', {
    operation: 'createProfileAllowance',
    as: token,
    params: { id },
    body: { domain: 'video.example', minutes: 15 },
    expected: [201],
  });
  await call('put', '/v1/profiles/{id}/devices/{deviceId}/policy', {
    operation: 'replaceDevicePolicy',
    as: token,
    params: { id, deviceId: 'never-seen' },
    body: {},
    expected: [404, 428],
  });
  await call('post', '/v1/profiles/{id}/devices/{deviceId}/pause', {
    operation: 'pauseDevice',
    as: token,
    params: { id, deviceId: 'never-seen' },
    body: { minutes: 15 },
    expected: [404, 428],
  });

  // Teams (issue 39): an invitation is made; the rest name members and organisations that do not exist, or
  // ask for a confirmation of identity first.
  await call('post', '/v1/org/invitations', {
    operation: 'createInvitation',
    as: session,
    body: { email: 'invited-generated@example.test', role: 'viewer' },
    expected: [201],
  });
  await call('post', '/v1/org/invitations/accept', {
    operation: 'acceptInvitation',
    as: session,
    body: { token: 'inv_neverissuedneverissuedneverissued' },
    expected: [400, 403, 404, 409, 410],
  });
  const stranger = '00000000-0000-4000-8000-00000000abcd';
  await call('patch', '/v1/org/members/{id}', {
    operation: 'updateMemberRole',
    as: session,
    params: { id: stranger },
    body: { role: 'viewer' },
    expected: [404],
  });
  await call('post', '/v1/org/ownership', {
    operation: 'transferOwnership',
    as: session,
    body: { member_id: stranger },
    expected: [403, 404],
  });
  await call('put', '/v1/auth/me/organisation', {
    operation: 'switchOrganisation',
    as: session,
    body: { org_id: stranger },
    expected: [403, 404],
  });

  // The account's own settings and messages.
  await call('patch', '/v1/auth/me/preferences', {
    operation: 'updatePreferences',
    as: session,
    body: { alerts: { node_offline: false } },
    expected: [200],
  });
  await call('post', '/v1/client-errors', {
    operation: 'reportClientError',
    as: session,
    body: { message: 'TypeError: nothing to see' },
    expected: [202],
  });
  await call('post', '/v1/feedback', {
    operation: 'sendFeedback',
    as: session,
    body: { message: 'The setup page helped.' },
    expected: [202],
  });

  // Second factors and recovery: an authenticator app, a recovery that removes it (the recovered session must
  // set one up again), then switching it off.
  async function enrolTotp(as: Credential): Promise<{ secret: string; recoveryCodes: string[] }> {
    const enrolment = await call('post', '/v1/auth/totp', {
      operation: 'startTotpEnrolment',
      as,
      expected: [200, 201],
    });
    const secret = enrolment.json?.secret ?? '';
    const confirmed = await call('post', '/v1/auth/totp/confirm', {
      operation: 'confirmTotpEnrolment',
      as,
      body: { code: harness.totp(secret) },
      expected: [200],
    });
    await call('get', '/v1/auth/totp', { operation: 'getTotpStatus', as, expected: [200] });
    // Recovery codes come with the first second factor only.
    return { secret, recoveryCodes: confirmed.json?.recovery_codes ?? [] };
  }
  const { recoveryCodes } = await enrolTotp(session);
  const mailsBefore = (await harness.mailTo(ownerEmail)).length;
  await call('post', '/v1/auth/recovery', {
    operation: 'requestAccountRecovery',
    body: { email: ownerEmail },
    expected: [202],
  });
  const recovered = await call('post', '/v1/auth/recovery/confirm', {
    operation: 'confirmAccountRecovery',
    body: {
      token: await emailedToken(ownerEmail, 'rec', mailsBefore),
      recovery_code: recoveryCodes[0] ?? '',
    },
    expected: [200],
  });
  const restricted = { cookie: recovered.cookie ?? '' };
  const { secret } = await enrolTotp(restricted);
  await call('post', '/v1/auth/totp/disable', {
    operation: 'disableTotp',
    as: restricted,
    body: { code: harness.totp(secret) },
    expected: [200, 204],
  });
  await call('post', '/v1/auth/password', {
    operation: 'changePassword',
    as: restricted,
    body: { current_password: PASSWORD, new_password: `${PASSWORD} two` },
    expected: [200, 204],
  });
  const resetBefore = (await harness.mailTo(ownerEmail)).length;
  await call('post', '/v1/auth/password/reset', {
    operation: 'requestPasswordReset',
    body: { email: ownerEmail },
    expected: [202],
  });
  await call('post', '/v1/auth/password/reset/confirm', {
    operation: 'confirmPasswordReset',
    body: { token: await emailedToken(ownerEmail, 'rst', resetBefore), new_password: PASSWORD },
    expected: [200, 204],
  });
  const again = await call('post', '/v1/auth/login', {
    operation: 'login',
    body: { email: ownerEmail, password: PASSWORD },
    expected: [200],
  });
  const fresh = { cookie: again.cookie ?? '' };

  // Passkeys: the ceremonies' bodies are accepted; made-up credentials do not verify.
  await call('post', '/v1/auth/passkeys/registration/options', {
    operation: 'startPasskeyRegistration',
    as: fresh,
    expected: [200],
  });
  await call('post', '/v1/auth/passkeys/registration', {
    operation: 'registerPasskey',
    as: fresh,
    body: {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
      },
    },
    expected: [400],
  });
  await call('patch', '/v1/auth/passkeys/{id}', {
    operation: 'renamePasskey',
    as: fresh,
    params: { id: '00000000-0000-4000-8000-000000000000' },
    body: { name: 'laptop' },
    expected: [404],
  });
  await call('post', '/v1/auth/passkeys/authentication/options', {
    operation: 'startPasskeySignIn',
    body: {},
    expected: [200],
  });
  await call('post', '/v1/auth/passkeys/authentication', {
    operation: 'signInWithPasskey',
    body: {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
      },
    },
    expected: [400, 401],
  });

  // An operator.
  const operatorEmail = 'operator@example.test';
  await newAccount(operatorEmail);
  await harness.makeOperator(operatorEmail);
  const operatorSession = await call('post', '/v1/auth/login', {
    operation: 'login',
    body: { email: operatorEmail, password: PASSWORD },
    expected: [200],
  });
  const adminToken = await call('post', '/v1/tokens', {
    operation: 'createToken',
    as: { cookie: operatorSession.cookie ?? '' },
    body: { name: 'operator', scopes: ['admin'] },
    expected: [201],
  });
  const admin = { bearer: adminToken.json?.secret ?? '' };
  await call('post', '/v1/admin/operator-blocks', {
    operation: 'createOperatorBlock',
    as: admin,
    body: { pattern: 'malware.example', reason_code: 'abuse' },
    expected: [201],
  });
  await call('post', '/v1/admin/source-blocks', {
    operation: 'createSourceBlock',
    as: admin,
    body: {
      cidr: '203.0.113.0/24',
      reason: 'scanning',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    },
    expected: [201],
  });
  for (const suspended of [true, false]) {
    await call('patch', '/v1/admin/profiles/{id}', {
      operation: 'updateProfileSuspension',
      as: admin,
      params: { id },
      body: suspended ? { suspended, reason: 'checking a report' } : { suspended },
      expected: [200],
    });
  }
  await call('patch', '/v1/admin/list-reports/{id}', {
    operation: 'decideListReport',
    as: admin,
    params: { id: report.json?.id ?? '' },
    body: { status: 'rejected', resolution_note: 'The list is right.' },
    expected: [200],
  });
  const leaver = await newAccount('leaver@example.test');
  await call('post', '/v1/admin/accounts/{id}/deletion', {
    operation: 'deleteAccountOnBehalf',
    as: admin,
    params: { id: leaver.id },
    body: { reason: 'asked by email' },
    expected: [202],
  });
  await call('delete', '/v1/admin/accounts/{id}/deletion', {
    operation: 'cancelAccountDeletionOnBehalf',
    as: admin,
    params: { id: leaver.id },
    body: {},
    expected: [200],
  });
  return outcomes;
}
