import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPages, PASSWORD, signedIn, verifiedAccount } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());

/** Signs `email` in on the client the pages use. */
async function actAs(email: string): Promise<void> {
  await connectPages(server).auth.login({ email, password: PASSWORD });
}

describe('members page and the invitation link (issue 39)', () => {
  it('invites by email, the invitee joins from the mailed link, then the owner changes the role and removes them', async () => {
    const invitee = await verifiedAccount(server);
    const { email: owner } = await signedIn(server);
    const invite = renderRoute('/account/members');
    await screen.findByRole('heading', { level: 1, name: 'Members' });
    const members = await screen.findByRole('table', { name: 'Members of this organisation' });
    expect(within(members).getByRole('row', { name: new RegExp(owner) })).toHaveTextContent('Owner');

    await invite.user.type(screen.getByLabelText('Email address'), invitee);
    await invite.user.click(screen.getByRole('radio', { name: 'Editor' }));
    await invite.user.click(screen.getByRole('button', { name: 'Send invitation' }));
    const pending = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(pending).getByRole('row', { name: new RegExp(invitee) })).toHaveTextContent('Editor');
    invite.unmount();

    const link = await server.linkFromEmail(invitee, /\/invitations\/accept\?token=inv_/);
    await actAs(invitee);
    const accept = renderRoute(`/invitations/accept${new URL(link).search}`);
    expect(await screen.findByRole('status')).toHaveTextContent(/You joined .+ as Editor\./);
    accept.unmount();

    await actAs(owner);
    const manage = renderRoute('/account/members');
    const role = await screen.findByRole('combobox', { name: `Role of ${invitee}` });
    expect(role).toHaveValue('editor');
    await manage.user.selectOptions(role, 'viewer');
    expect(await screen.findByText(`${invitee} is now Viewer.`)).toBeInTheDocument();
    await manage.user.click(screen.getByRole('button', { name: `Remove ${invitee}` }));
    expect(await screen.findByText(`${invitee} no longer belongs to this organisation.`)).toBeInTheDocument();
    await waitFor(() => {
      const table = screen.getByRole('table', { name: 'Members of this organisation' });
      expect(within(table).queryByRole('row', { name: new RegExp(invitee) })).not.toBeInTheDocument();
    });
  });

  it('a viewer sees the members but no controls to change them', async () => {
    const viewer = await verifiedAccount(server);
    const { client } = await signedIn(server);
    await client.org.invitations.create({ email: viewer, role: 'viewer' });
    const link = await server.linkFromEmail(viewer, /\/invitations\/accept\?token=inv_/);
    await actAs(viewer);
    renderRoute(`/invitations/accept${new URL(link).search}`);
    await screen.findByRole('status');
    renderRoute('/account/members');
    await screen.findByRole('table', { name: 'Members of this organisation' });
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
    // Belonging to two organisations, the viewer is offered the switch.
    expect(await screen.findByRole('combobox', { name: 'Organisation' })).toBeInTheDocument();
  });
});
