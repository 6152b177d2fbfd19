import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let receiver: Server;
let receiverUrl = '';
let received = 0;

beforeAll(async () => {
  // The endpoint is a receiver on loopback, which the API delivers to only with SVC_OUTBOUND_ALLOW_PRIVATE.
  receiver = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startInProcessApi({ SVC_OUTBOUND_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
let client: SvcClient;

beforeEach(async () => {
  ({ client } = await signedIn(server));
});

describe('webhooks page', () => {
  it('adds an endpoint, shows its secret once, sends a test and redelivers it from its deliveries', async () => {
    const { user } = renderRoute('/account/webhooks');
    await screen.findByRole('heading', { level: 1, name: 'Webhooks' });
    expect(await screen.findByText('You have no webhook endpoint.')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Endpoint URL/), receiverUrl);
    await user.click(screen.getByRole('checkbox', { name: 'profile.updated' }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));

    await screen.findByRole('heading', { name: `The signing secret of ${receiverUrl}` });
    expect((screen.getByLabelText('Signing secret') as HTMLInputElement).value).toMatch(/^whsec_/);
    const table = await screen.findByRole('table', { name: 'Webhook endpoints' });
    expect(within(table).getByRole('row', { name: new RegExp(receiverUrl) })).toHaveTextContent(
      'profile.updated',
    );

    await user.click(screen.getByRole('button', { name: `Send a test to ${receiverUrl}` }));
    await user.click(screen.getByRole('button', { name: `Deliveries of ${receiverUrl}` }));
    const deliveries = await screen.findByRole('region', { name: `Deliveries of ${receiverUrl}` });
    // The delivery job sends it within a second; the list shows it once it is read again.
    const redeliver = await within(deliveries).findByRole(
      'button',
      { name: /^Redeliver ping / },
      { timeout: 5_000 },
    );
    expect(within(deliveries).getByRole('row', { name: /ping/ })).toHaveTextContent('succeeded');
    await user.click(redeliver);
    expect(await screen.findByText('The message is queued again.')).toBeInTheDocument();
    expect(received).toBeGreaterThanOrEqual(1);
    const [webhook] = await client.webhooks.list().toArray();
    expect(await client.webhooks.deliveries(webhook?.id ?? '').toArray()).toHaveLength(2);
  });

  it('shows the 422 at the field it is about', async () => {
    const { user } = renderRoute('/account/webhooks');
    await screen.findByRole('heading', { level: 1, name: 'Webhooks' });
    await user.type(screen.getByLabelText(/^Endpoint URL/), 'not an address');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Endpoint URL/ })).toHaveAttribute(
      'href',
      '#field-url',
    );
    expect(within(summary).getByRole('link', { name: /^Events/ })).toHaveAttribute('href', '#field-events');
    expect(screen.queryByRole('heading', { name: /signing secret/ })).not.toBeInTheDocument();
  });
});
