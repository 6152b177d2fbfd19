import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
  const customer = await signedIn(server, newEmail('customer'));
  const profile = await customer.client.profiles.create({ name: 'Reported' });
  for (const domain of ['one.example', 'two.example'])
    await customer.client.profiles.listReports.create(profile.id, {
      domain,
      list_id: 1,
      kind: 'false_positive',
    });
  // Signed in last, the operator is the one the pages act as.
  const { email } = await signedIn(server, newEmail('operator'));
  await setOperatorFlag(await server.app.container.getAsync<IdentityStore>(IdentityStore), email, true);
});
afterAll(() => server.close());

describe('operator list-report triage page', () => {
  it('labels each report’s decision by its own labels, whatever the order of the cards', async () => {
    renderRoute('/operator');
    const queue = await screen.findByRole('list', { name: 'Reports, oldest due first' }, { timeout: 5000 });
    for (const domain of ['one.example', 'two.example']) {
      const card = await within(queue).findByRole('listitem', { name: domain });
      const form = within(card).getByRole('form', { name: `Decide on ${domain}` });
      expect(within(form).getByRole('radio', { name: 'Reject' })).not.toBeChecked();
      expect(within(form).getByRole('radio', { name: /^Accept/ })).toBeChecked();
      expect(within(form).getByRole('textbox', { name: 'Note to the reporter' })).toBeInTheDocument();
    }
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
