// An integrator's ES module, compiled with tsc against the packed SDK and run by Node in a project that has
// only the SDK's declared dependencies: it prints what it saw as one JSON line.

import * as sdk from '@svc/sdk';
import {
  createClient,
  isApiError,
  isNotFound,
  type Profile,
  type ProfileCreateRequest,
  queryRecords,
} from '@svc/sdk';

const [baseUrl, token] = process.argv.slice(2);
if (baseUrl === undefined || token === undefined) throw new Error('usage: consumer.mjs <baseUrl> <token>');

const client = createClient({ baseUrl, token });
const request: ProfileCreateRequest = { name: 'packed from ESM', settings: { retention_days: 7 } };
const profile: Profile = await client.profiles.create(request);
const version: number = profile.version;
// @ts-expect-error the answer's type comes from the schema, so a field it lacks does not type-check
profile.not_a_profile_field;
// @ts-expect-error the resources are types only: the SDK ships no schema values, so none can be used as one
sdk.Profile;
const renamed = await client.profiles.update(profile.id, { name: 'renamed from ESM' }, { ifMatch: version });
const missing: unknown = await client.profiles.get('zz99zz').catch((error: unknown) => error);
const rows = queryRecords<{ qname: string }>({
  columns: [{ name: 'qname', type: 'string' }],
  rows: [['a.example']],
});

/** The code Node gives when `specifier` cannot be resolved from here, or `resolved` when it can. */
function resolution(specifier: string): string {
  try {
    import.meta.resolve(specifier);
    return 'resolved';
  } catch (error: unknown) {
    return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
  }
}

process.stdout.write(
  `${JSON.stringify({
    sdkEntry: import.meta.resolve('@svc/sdk'),
    name: renamed.name,
    retentionDays: renamed.settings.retention_days,
    versions: [version, renamed.version],
    missing: isNotFound(missing) ? { status: missing.status, code: missing.code } : String(missing),
    missingIsApiError: isApiError(missing, 'not_found'),
    qnames: rows.map((row) => row.qname),
    domain: resolution('@svc/domain'),
  })}\n`,
);
