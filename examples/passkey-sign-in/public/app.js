// @ts-check
import { API } from './config.js';
import { assertionJson, attestationJson, creationOptionsOf, requestOptionsOf } from './webauthn-json.js';

/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {string} text */
function show(text) {
  element('output').textContent = text;
}

/**
 * Calls the API with the session cookie (credentials: include): the API allows this page's origin as a
 * dashboard origin, and its cookie is SameSite=Lax, so localhost:3000 and localhost:8080 share it.
 * @param {string} method @param {string} path @param {unknown} [body]
 */
async function call(method, path, body) {
  const answer = await fetch(`${API}${path}`, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  const json = text === '' ? null : JSON.parse(text);
  if (!answer.ok) throw new Error(`${answer.status} ${json?.code ?? ''}: ${json?.detail ?? text}`);
  return json;
}

/** @param {() => Promise<string>} action */
function run(action) {
  return () => {
    action().then(show, (/** @type {unknown} */ error) => show(`Failed: ${String(error)}`));
  };
}

element('password-sign-in').addEventListener(
  'click',
  run(async () => {
    const { account } = await call('POST', '/v1/auth/login', {
      email: input('email').value,
      password: input('password').value,
    });
    return `Signed in with a password as ${account.email}. You can add a passkey now (within five minutes).`;
  }),
);

element('add-passkey').addEventListener(
  'click',
  run(async () => {
    const options = await call('POST', '/v1/auth/passkeys/registration/options');
    const credential = await navigator.credentials.create({ publicKey: creationOptionsOf(options) });
    if (!(credential instanceof PublicKeyCredential)) return 'No passkey was created.';
    const { passkey, recovery_codes } = await call('POST', '/v1/auth/passkeys/registration', {
      name: 'Example page',
      response: attestationJson(credential),
    });
    const codes =
      recovery_codes === undefined ? '' : `\nRecovery codes (shown once): ${recovery_codes.join(' ')}`;
    return `Passkey "${passkey.name}" added.${codes}`;
  }),
);

element('passkey-sign-in').addEventListener(
  'click',
  run(async () => {
    const email = input('email').value.trim();
    // Without an email the browser offers the passkeys it holds for this site (discoverable credentials).
    const options = await call(
      'POST',
      '/v1/auth/passkeys/authentication/options',
      email === '' ? {} : { email },
    );
    const credential = await navigator.credentials.get({ publicKey: requestOptionsOf(options) });
    if (!(credential instanceof PublicKeyCredential)) return 'No passkey was used.';
    const { account } = await call('POST', '/v1/auth/passkeys/authentication', {
      response: assertionJson(credential),
    });
    return `Signed in with a passkey as ${account.email}.`;
  }),
);

element('who-am-i').addEventListener(
  'click',
  run(async () => JSON.stringify((await call('GET', '/v1/auth/me')).account, null, 2)),
);

element('sign-out').addEventListener(
  'click',
  run(async () => {
    await call('POST', '/v1/auth/logout');
    return 'Signed out.';
  }),
);
