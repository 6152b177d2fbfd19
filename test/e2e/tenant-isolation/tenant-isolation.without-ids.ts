import type { Dispatcher } from 'undici';
import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import type { TenantWithResources } from '../../support/tenant-resources.js';
import { type IsolationFixture, marksOf } from './tenant-isolation.fixture.js';
import { CREATE_BODIES, EXAMPLE_BODIES, fill, isOperatorRoute } from './tenant-isolation.operations.js';

/** What the stranger reaches without the owner's ids: lists, node self routes, its export, Idempotency-Keys. */
export function isolationWithoutIds(fx: IsolationFixture): void {
  it('lists, node self routes (no id in the path) and the stranger’s own data export show nothing of the owner', async () => {
    const ownerMarks = marksOf(fx.owner);
    const failures: string[] = [];
    for (const entry of fx.operations.filter(({ path, method }) => !path.includes('{') && method === 'get')) {
      const { operation, path } = entry;
      const upgrades = operation.responses['101'] !== undefined;
      if (isOperatorRoute(path) || upgrades || (operation.security ?? []).length === 0) continue;
      const schemes = new Set((operation.security ?? []).flatMap((security) => Object.keys(security)));
      const credentials = [
        ...(schemes.has('apiToken') ? [fx.stranger.account.auth] : []),
        ...(schemes.has('session') ? [fx.stranger.session] : []),
        ...(schemes.has('nodeToken') ? [{ authorization: `Bearer ${fx.stranger.nodeToken}` }] : []),
      ];
      for (const headers of credentials) {
        const answer = await send(`${fx.api.url}${path}`, { headers });
        if (answer.status !== 200) failures.push(`${path}: answered ${answer.status}: ${answer.text}`);
        const seen = ownerMarks.filter((mark) => answer.text.includes(mark));
        if (seen.length > 0) failures.push(`${path} shows the owner's ${seen.join(', ')}`);
      }
    }
    const archive = await send(`${fx.api.url}/v1/auth/me/exports/${fx.stranger.ids.dataExport[0]}/download`, {
      headers: fx.stranger.session,
    });
    expect(archive.status).toBe(200);
    expect(archive.text).toContain(fx.stranger.account.email);
    const inArchive = ownerMarks.filter((mark) => archive.text.includes(mark));
    if (inArchive.length > 0)
      failures.push(`the stranger's export holds the owner's ${inArchive.join(', ')}`);
    expect(failures).toEqual([]);
  });

  it('an Idempotency-Key the owner used neither replays nor conflicts for the stranger (spec 4.1.5: per account)', async () => {
    const idempotent = fx.operations.filter(
      ({ path, method, operation }) =>
        method === 'post' &&
        !isOperatorRoute(path) &&
        JSON.stringify(operation.parameters ?? []).includes('Idempotency-Key'),
    );
    expect(idempotent.length).toBeGreaterThanOrEqual(5);
    const ownerMarks = marksOf(fx.owner);
    const failures: string[] = [];
    for (const [index, entry] of idempotent.entries()) {
      const { operationId } = entry.operation;
      const body = EXAMPLE_BODIES[operationId] ?? CREATE_BODIES[operationId];
      if (entry.operation.requestBody !== undefined && body === undefined) {
        failures.push(`${operationId}: add a body to CREATE_BODIES`);
        continue;
      }
      const key = `shared-key-${index}`;
      const post = (who: TenantWithResources) =>
        send(
          `${fx.api.url}${fill(entry.path, { id: who.ids.profile[0] ?? '', deviceId: who.ids.device[0] ?? '' })}`,
          {
            method: 'POST',
            headers: { ...who.session, 'idempotency-key': key },
            ...(body === undefined ? {} : { body }),
          },
        );
      const mine = await post(fx.owner);
      // An answer made of the clock alone (a pause's end) must differ by time, not look replayed.
      fx.api.clock.advance(1_000);
      const theirs = await post(fx.stranger);
      if (theirs.status >= 300) {
        failures.push(
          `${operationId}: the stranger got ${theirs.status} for a key the owner used: ${theirs.text}`,
        );
      }
      const seen = ownerMarks.filter((mark) => theirs.text.includes(mark));
      if (seen.length > 0 || (mine.status < 300 && theirs.text === mine.text)) {
        failures.push(`${operationId}: the stranger was answered with the owner's response: ${theirs.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('node self routes refuse an account’s credentials with 401 (spec 5.1)', async () => {
    const nodeRoutes = fx.operations.filter(({ operation }) => {
      const schemes = (operation.security ?? []).flatMap((security) => Object.keys(security));
      return schemes.length > 0 && schemes.every((scheme) => scheme === 'nodeToken');
    });
    expect(nodeRoutes.length).toBeGreaterThanOrEqual(4);
    for (const { method, path } of nodeRoutes) {
      for (const headers of [fx.stranger.account.auth, fx.stranger.session]) {
        const answer = await send(`${fx.api.url}${path}`, {
          method: method.toUpperCase() as Dispatcher.HttpMethod,
          headers,
        });
        expect(answer.status, `${method} ${path}`).toBe(401);
      }
    }
    const self = await send(`${fx.api.url}/v1/nodes/self/profile`, {
      headers: { authorization: `Bearer ${fx.stranger.nodeToken}` },
    });
    expect(self.text).toContain(fx.stranger.ids.profile[0]);
  });
}
