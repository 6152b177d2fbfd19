import { enrolNode, MemoryCredentialStore, NodeAgent, UnsupportedShapeError } from '@svc/node-agent-kit';
import { ApiError, createClient } from '@svc/sdk';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSkipReason } from '../../support/dashboard-browser.js';
import { open } from '../../support/dashboard-data.js';
import { signedInDashboard } from '../../support/signed-in-dashboard.js';

/** Self-hosted nodes in Chromium: create with the code shown once, link state and version, revoke. */
describe.skipIf(browserSkipReason !== undefined)('dashboard: nodes', () => {
  const dashboard = signedInDashboard('nodes');

  async function nodesPage(profileId: string): Promise<Page> {
    const { context, page } = await dashboard.signedInPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.server.url });
    await open(page, dashboard.server, `/profiles/${profileId}/nodes`, 'Nodes');
    return page;
  }

  it('creates a node and shows its enrolment code once, with the exact command to run', async () => {
    const profile = await dashboard.api.profiles.create({
      name: 'Rack',
      settings: { log_destination: 'self-hosted' },
    });
    const page = await nodesPage(profile.id);
    await page.getByRole('textbox', { name: 'Node name' }).fill('home-rack');
    await page.getByRole('button', { name: 'Create node' }).click();
    const shown = page.getByRole('region', { name: 'Enrol home-rack' });
    await shown.waitFor();
    // Emptied once the node exists, so a second click does not create a twin.
    expect(await page.getByRole('textbox', { name: 'Node name' }).inputValue()).toBe('');
    const code = (await shown.getByText(/^svcenrol_/).textContent()) ?? '';
    expect(code).toMatch(/^svcenrol_/);
    const command = `SVC_API_URL=${dashboard.server.url} NODE_ENROLMENT_CODE=${code} npm start -w examples/reference-node`;
    expect(await shown.locator('pre').textContent()).toBe(command);
    await shown.getByRole('button', { name: 'Copy the command' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(command);
    await page
      .getByRole('table', { name: 'Nodes of Rack' })
      .getByRole('cell', { name: 'Waiting for enrolment' })
      .waitFor();

    // The code is never shown again, and it enrols exactly one node.
    await page.reload();
    await page.getByRole('table', { name: 'Nodes of Rack' }).waitFor();
    expect(await page.getByText(code).count()).toBe(0);
    const store = new MemoryCredentialStore();
    await enrolNode({
      baseUrl: dashboard.server.url,
      enrolmentCode: code,
      version: '2.4.1',
      shapes: ['tail'],
      store,
    });
    await expect(
      enrolNode({
        baseUrl: dashboard.server.url,
        enrolmentCode: code,
        version: '2.4.1',
        shapes: ['tail'],
        store: new MemoryCredentialStore(),
      }),
    ).rejects.toThrow();

    // Linked, it shows as connected with the version it reported; unlinked, offline.
    const agent = new NodeAgent({
      baseUrl: dashboard.server.url,
      store,
      version: '2.4.1',
      shapes: ['tail'],
      handler: {
        async answer(shape) {
          throw new UnsupportedShapeError(shape);
        },
      },
      onProfile: () => undefined,
      onRevoked: () => undefined,
    });
    await agent.start();
    try {
      const row = page.getByRole('row', { name: /home-rack/ });
      await expect
        .poll(
          async () => {
            await page.reload();
            return row.textContent();
          },
          { timeout: 20_000 },
        )
        .toMatch(/Connected.*2\.4\.1/);
    } finally {
      await agent.stop();
    }
    await page.context().close();
  }, 90_000);

  it('revokes a node after confirmation; its token stops working', async () => {
    const profile = await dashboard.api.profiles.create({
      name: 'Garage',
      settings: { log_destination: 'self-hosted' },
    });
    const created = await dashboard.api.profiles.nodes.create(profile.id, { name: 'garage-pi' });
    const store = new MemoryCredentialStore();
    const credentials = await enrolNode({
      baseUrl: dashboard.server.url,
      enrolmentCode: created.enrolment_code,
      version: '1.0.0',
      shapes: ['tail'],
      store,
    });
    const page = await nodesPage(profile.id);
    await page.getByRole('cell', { name: 'Offline' }).waitFor();
    await page.getByRole('button', { name: 'Revoke garage-pi' }).click();
    await page.getByRole('button', { name: 'Yes, revoke garage-pi' }).click();
    await page.getByRole('cell', { name: 'Revoked' }).waitFor();
    expect((await dashboard.api.profiles.nodes.get(profile.id, created.node.id)).state).toBe('revoked');
    const node = createClient({ baseUrl: dashboard.server.url, token: credentials.nodeToken, maxRetries: 0 });
    const refused = await node.nodes.self.get().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused instanceof ApiError ? `${refused.status} ${refused.code}` : '').toBe('401 node_revoked');
    await page.context().close();
  }, 90_000);

  it('says where the logs go when the profile does not send them to a node', async () => {
    const profile = await dashboard.api.profiles.create({ name: 'Cloudy' });
    const page = await nodesPage(profile.id);
    await page.getByText(/Logs of this profile go to the cloud/).waitFor();
    await page.getByRole('link', { name: 'Where logs go' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.context().close();
  });
});
