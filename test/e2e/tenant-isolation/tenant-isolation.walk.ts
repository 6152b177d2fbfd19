import { expect, it } from 'vitest';
import type { ResourceKind } from '../../support/tenant-resources.js';
import { differences, type IsolationFixture } from './tenant-isolation.fixture.js';
import {
  combinations,
  EXAMPLE_BODIES,
  fill,
  MISSING,
  OUTSIDE_THE_WALK,
  parametersOf,
} from './tenant-isolation.operations.js';

/** The walk of every operation with a path parameter, the owner's ids sent by the stranger (spec 1.9, 5.3.4). */
export function isolationWalk(fx: IsolationFixture): void {
  const { call, credentialsFor, ownerView } = fx;
  it('walks every operation with a path parameter that an account reaches: owned ids answer as missing ones do', async () => {
    const walked = fx.operations.filter(
      ({ path, operation }) => path.includes('{') && OUTSIDE_THE_WALK[operation.operationId] === undefined,
    );
    expect(walked.length).toBeGreaterThanOrEqual(40);
    const before = await ownerView();
    // The owner's second export is still pending: a stranger must get 404 there, not 409 export_not_ready.
    expect(before[`/v1/auth/me/exports/${fx.owner.ids.dataExport[1]}`]).toContain('"status":"pending"');
    const failures: string[] = [];
    let compared = 0;
    for (const entry of walked) {
      const { operation, path } = entry;
      const label = `${entry.method.toUpperCase()} ${path} (${operation.operationId})`;
      if (operation.requestBody !== undefined && EXAMPLE_BODIES[operation.operationId] === undefined) {
        failures.push(`${label}: add an example body to EXAMPLE_BODIES`);
        continue;
      }
      const parameters = parametersOf(path).flatMap(({ name, kind }) => {
        if (kind !== undefined) return [{ name, kind }];
        failures.push(`${label}: name the resource of {${name}} in PARAMETER_RESOURCES`);
        return [];
      });
      if (parameters.length < parametersOf(path).length) continue;
      const valuesOf = (pick: (kind: ResourceKind | 'deployment', index: number) => string[]) =>
        Object.fromEntries(
          parameters.map(({ name, kind }, index) => [
            name,
            kind === 'shape' ? ['top_domains'] : pick(kind, index),
          ]),
        );
      const missing = (kind: ResourceKind | 'deployment') => [MISSING[kind]];
      const owned = (kind: ResourceKind | 'deployment') =>
        kind === 'deployment' ? missing(kind) : fx.owner.ids[kind];
      // The owner's resource against nothing at all, and (under a profile) the owner's sub-resource under the
      // stranger's own profile against a sub-resource that does not exist there.
      const cases = [{ name: 'owned', ids: valuesOf(owned), baseline: valuesOf(missing), headers: {} }];
      // A stale If-Match must not turn the 404 into 412 version_mismatch, which would tell the profile exists.
      if (entry.method !== 'get') {
        cases.push({
          name: 'owned with a stale If-Match',
          ids: valuesOf(owned),
          baseline: valuesOf(missing),
          headers: { 'if-match': '"999"' },
        });
      }
      if (
        parameters[0]?.kind === 'profile' &&
        parameters.some(({ kind }) => kind !== 'profile' && kind !== 'shape')
      ) {
        cases.push({
          name: 'mixed',
          ids: valuesOf((kind, index) => (index === 0 ? fx.stranger.ids.profile : owned(kind))),
          baseline: valuesOf((kind, index) => (index === 0 ? fx.stranger.ids.profile : missing(kind))),
          headers: {},
        });
      }
      for (const credential of credentialsFor(entry, fx.stranger)) {
        for (const { name, ids, baseline, headers } of cases) {
          const sent = { ...credential.headers, ...headers };
          const [nothing] = combinations(baseline);
          const reference = await call(entry, nothing ?? {}, sent);
          for (const row of combinations(ids)) {
            const where = `${label} ${name} ${fill(path, row)} with the stranger's ${credential.name}`;
            try {
              const answer = await call(entry, row, sent);
              compared += 1;
              if (answer.status !== credential.expected) {
                failures.push(
                  `${where}: answered ${answer.status}, not ${credential.expected}: ${answer.text}`,
                );
              } else if (!(answer.headers['content-type'] ?? '').startsWith('application/problem+json')) {
                failures.push(`${where}: no problem document`);
              }
              const told = differences(answer, reference);
              if (told.length > 0) failures.push(`${where}: differs from a missing id: ${told.join('; ')}`);
            } catch (error) {
              failures.push(`${where}: ${String(error)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(100);
    // Nothing the stranger sent changed anything the owner sees: bodies, versions and ETags are as they were.
    expect(await ownerView()).toEqual(before);
  }, 120_000);
}
