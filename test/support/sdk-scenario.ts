import type { Profile, SvcClient } from '@svc/sdk';
import { ApiError, createClient } from '@svc/sdk';
import { type ApiHarness, eventually, startApi } from './api-harness.js';
import { OperationRecorder } from './operation-recorder.js';

const DASHBOARD = 'http://localhost:3000';

/** The password of every account the scenario signs up. */
export const SCENARIO_PASSWORD = 'correct horse battery';

/** An account signed in through the SDK: its session client, address and id. */
export interface ScenarioAccount {
  session: SvcClient;
  email: string;
  id: string;
}

/** What earlier steps of the scenario leave for later ones. */
export interface ScenarioState {
  /** The account that owns the profile, deleted last. */
  owner: ScenarioAccount;
  /** The owner's API token client (profiles, logs, analytics, account:read). */
  scripted: SvcClient;
  /** The owner's profile, as last read. */
  profile: Profile;
  /** A blocklist of the catalogue, which the profile uses and a list report names. */
  listId: number;
  /** A second account (sessions, passwords), which an operator deletes on its behalf. */
  member: ScenarioAccount;
}

/**
 * One API on the embedded engines shared by the steps of a test file, each step a `describe` run in order:
 * clients it makes record their calls in {@link recorder}, and steps hand each other what they created.
 */
export class SdkScenario {
  readonly recorder = new OperationRecorder();
  private harness: ApiHarness | undefined;
  private readonly state: Partial<ScenarioState> = {};
  private sequence = 0;

  /** Starts the API on PGlite with the embedded columnar store (chdb). */
  async start(env: Record<string, string>): Promise<void> {
    this.harness = await startApi('pglite', env);
  }

  async close(): Promise<void> {
    await this.harness?.close();
  }

  get api(): ApiHarness {
    if (this.harness === undefined) throw new Error('the scenario has not started its API');
    return this.harness;
  }

  /** Keeps `value` for the steps after this one. */
  keep<K extends keyof ScenarioState>(key: K, value: ScenarioState[K]): void {
    this.state[key] = value;
  }

  /** What an earlier step kept under `key`. */
  get<K extends keyof ScenarioState>(key: K): ScenarioState[K] {
    const value = this.state[key];
    if (value === undefined) throw new Error(`no earlier step kept the scenario's ${key}`);
    return value as ScenarioState[K];
  }

  /**
   * A recorded client from the dashboard origin: anonymous, then with a session or a bearer token. With
   * `forwardedFor` it calls through a proxy that names that address as the client's (the scenario's API trusts
   * a loopback proxy), as a router on the internet would be seen.
   */
  client(options: { token?: string; forwardedFor?: string } = {}): SvcClient {
    const { forwardedFor, ...rest } = options;
    const viaProxy =
      forwardedFor === undefined
        ? {}
        : {
            fetch: (input: string | URL | Request, init?: RequestInit) => {
              const headers = new Headers(init?.headers);
              headers.set('x-forwarded-for', forwardedFor);
              return fetch(input, { ...init, headers });
            },
          };
    return this.recorder.wrap(
      createClient({ baseUrl: this.api.url, origin: DASHBOARD, ...rest, ...viaProxy }),
    );
  }

  /** A new address of a domain the scenario's signup allowlist admits. */
  freshEmail(role: string): string {
    this.sequence += 1;
    return `${role}${this.sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  }

  /** The token of the `count`-th emailed link to `email` whose token `pattern` captures. */
  async emailedToken(email: string, pattern: RegExp, count = 1): Promise<string> {
    const tokens = await eventually(
      async () => (await this.api.mailTo(email)).flatMap((mail) => pattern.exec(mail)?.[1] ?? []),
      (found) => found.length >= count,
    );
    const token = tokens[count - 1];
    if (token === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
    return decodeURIComponent(token);
  }

  /** Signs an account up, verifies it from the emailed link and signs in; the client keeps the session. */
  async signedIn(role: string): Promise<ScenarioAccount> {
    const email = this.freshEmail(role);
    const session = this.client();
    await session.auth.signup({ email, password: SCENARIO_PASSWORD });
    await session.auth.verify(await this.emailedToken(email, /verify-email\?token=([^\s"<]+)/));
    const account = await session.auth.login({ email, password: SCENARIO_PASSWORD });
    return { session, email, id: account.id };
  }
}

/** What a rejected promise rejected with, to assert on an ApiError's fields. */
export async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const failure = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(failure instanceof ApiError)) throw failure;
  return failure;
}
