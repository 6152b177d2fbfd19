// An integrator's CommonJS module: the same as consumer.mts through `require`, which resolves the SDK's
// dist/index.cjs and its dist/index.d.cts types.
import { createClient, isNotFound, type Profile, type ProfileCreateRequest } from '@svc/sdk';

/** The code Node gives when `specifier` cannot be required from here, or `resolved` when it can. */
function resolution(specifier: string): string {
  try {
    require.resolve(specifier);
    return 'resolved';
  } catch (error: unknown) {
    return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
  }
}

async function main(): Promise<void> {
  const [baseUrl, token] = process.argv.slice(2);
  if (baseUrl === undefined || token === undefined) throw new Error('usage: consumer.cjs <baseUrl> <token>');
  const client = createClient({ baseUrl, token });
  const request: ProfileCreateRequest = { name: 'packed from CJS' };
  const profile: Profile = await client.profiles.create(request);
  // @ts-expect-error version is a number in the schema
  const version: string = profile.version;
  const missing: unknown = await client.profiles.get('zz99zz').catch((error: unknown) => error);
  const listed: string[] = [];
  for await (const each of client.profiles.list({ limit: 1 })) listed.push(each.name);
  process.stdout.write(
    `${JSON.stringify({
      sdkEntry: require.resolve('@svc/sdk'),
      name: profile.name,
      version,
      missing: isNotFound(missing) ? { status: missing.status, code: missing.code } : String(missing),
      listed: listed.sort(),
      domain: resolution('@svc/domain'),
    })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
