import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());

describe('Feedback page', () => {
  it('shows the API’s refusal of an empty message at the field, then sends the feedback with its rating', async () => {
    const { client, email } = await signedIn(server);
    const { user } = renderRoute('/feedback');
    await screen.findByRole('heading', { level: 1, name: 'Send feedback' }, { timeout: 5000 });

    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Your feedback/ })).toBeInTheDocument();
    const message = screen.getByRole('textbox', { name: 'Your feedback' });
    expect(message).toBeInvalid();

    await user.type(message, 'The rules editor is lovely.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'How would you rate svc?' }), '4 – good');
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you: your feedback reached the team.');

    // What the operators read: the message and its rating, as sent.
    await setOperatorFlag(await server.app.container.getAsync<IdentityStore>(IdentityStore), email, true);
    const [sent] = await client.admin.feedback.list({ limit: 1 }).toArray();
    expect(sent).toMatchObject({ message: 'The rules editor is lovely.', rating: 4 });
  });
});
