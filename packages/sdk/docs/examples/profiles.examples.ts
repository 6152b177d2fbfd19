import { isConflict, type SvcClient } from '@svc/sdk';

/** profiles.md: create, read, list, update with If-Match, delete. */
export async function profileLifecycle(svc: SvcClient): Promise<void> {
  const profile = await svc.profiles.create({ name: 'Home', settings: { retention_days: 7 } });
  const same = await svc.profiles.get(profile.id);
  for await (const each of svc.profiles.list({ limit: 50 })) console.log(each.id, each.name);
  const renamed = await svc.profiles.update(profile.id, { name: 'Family' }, { ifMatch: same.version });
  await svc.profiles.delete(profile.id, { ifMatch: renamed.version });
}

/** profiles.md: a stale version is refused with 412 version_mismatch. */
export async function staleWrite(svc: SvcClient, id: string, version: number): Promise<void> {
  try {
    await svc.profiles.update(id, { name: 'Late' }, { ifMatch: version });
  } catch (error) {
    if (isConflict(error) && error.code === 'version_mismatch') {
      const fresh = await svc.profiles.get(id); // read again, then retry the change
      await svc.profiles.update(id, { name: 'Late' }, { ifMatch: fresh.version });
    } else throw error;
  }
}

/** profiles.md: the ETag of an answer, and the setup values. */
export async function profileEtagAndSetup(svc: SvcClient, id: string): Promise<void> {
  const { data: profile, etag } = await svc.profiles.get(id).withResponse();
  console.log(profile.name, etag); // etag is "<version>"
  const setup = await svc.profiles.setup(id);
  const mobileconfig = await svc.profiles.appleConfiguration(id); // the plist, as text
  console.log(setup, mobileconfig.length);
}
