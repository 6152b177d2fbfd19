import { type ProfileRecord, UnitOfWork } from '@svc/domain';
import { createAccount, type TestAccount } from './accounts.js';
import type { ApiHarness } from './api-harness.js';
import { send } from './http.js';

/** Where a profile is created: any running API with a URL (a harness, or a server of a cluster). */
interface ApiAt {
  url: string;
}

/** Creates a profile as `who` through POST /v1/profiles with `body`, and answers its id; throws unless 201. */
export async function createProfile(api: ApiAt, who: TestAccount, body: object = {}): Promise<string> {
  const answer = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: who.auth, body });
  if (answer.status !== 201) throw new Error(`profile creation answered ${answer.status}: ${answer.text}`);
  return (answer.json as { id: string }).id;
}

/** A new verified account (with an API token of `scopes`) and one profile created with `profile` as its body. */
export async function accountWithProfile(
  api: ApiHarness,
  options: { profile?: object; scopes?: string[] } = {},
): Promise<{ account: TestAccount; profileId: string }> {
  const account = await createAccount(api, options.scopes);
  return { account, profileId: await createProfile(api, account, options.profile) };
}

/** The organisation `who` belongs to, as GET /v1/auth/me answers it. */
export async function orgIdOf(api: ApiAt, who: TestAccount): Promise<string> {
  const me = await send(`${api.url}/v1/auth/me`, { headers: who.auth });
  return (me.json as { account: { org_id: string } }).account.org_id;
}

/**
 * Marks `who`'s profile suspended in storage, as an operator's suspension leaves it: the owner's behaviour on
 * a suspended profile is then tested without going through the operator routes.
 */
export async function suspendProfile(api: ApiHarness, who: TestAccount, profileId: string): Promise<void> {
  const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
  const orgId = await orgIdOf(api, who);
  await uow.run(async (tx) => {
    const record = (await tx.profiles.find(orgId, profileId, { forUpdate: true })) as ProfileRecord;
    await tx.profiles.save({ ...record, suspended: true });
  });
}
