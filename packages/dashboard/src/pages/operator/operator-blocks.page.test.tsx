import { IdentityStore, setOperatorFlag } from '@svc/domain';
import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let operator: SvcClient;
let operatorEmail: string;

beforeAll(async () => {
  server = await startInProcessApi();
  const session = await signedIn(server, newEmail('operator'));
  operator = session.client;
  operatorEmail = session.email;
  await setOperatorFlag(
    await server.app.container.getAsync<IdentityStore>(IdentityStore),
    operatorEmail,
    true,
  );
});
afterAll(() => server.close());

/** Each cell of `row` as its phone label and its text. */
function labelledCells(row: HTMLElement): string[][] {
  return within(row)
    .getAllByRole('cell')
    .map((cell) => [cell.getAttribute('data-label') ?? '', cell.textContent ?? '']);
}

describe('operator blocks page', () => {
  it('lists blocks in a table whose cells name their column (a card each on a phone), creator by email', async () => {
    await operator.admin.operatorBlocks.create({
      pattern: 'phone.example',
      reason_code: 'abuse',
      public_ref: 'Ref 9',
    });
    renderRoute('/operator/blocks');
    const table = await screen.findByRole(
      'table',
      { name: 'Live operator blocks, newest first' },
      { timeout: 5000 },
    );
    expect(table).toHaveClass('responsive-table');
    const row = await within(table).findByRole('row', { name: /phone\.example/ });
    expect(within(row).getByRole('rowheader')).toHaveTextContent('phone.example');
    const cells = labelledCells(row);
    expect(cells.map(([label]) => label)).toEqual([
      'Reason',
      'Public reference',
      'Scope',
      'Expires',
      'Created',
      'Remove',
    ]);
    expect(cells.slice(0, 4).map(([, text]) => text)).toEqual(['Abuse', 'Ref 9', 'Everywhere', 'never']);
    await within(row).findByText(operatorEmail, { exact: false });
    expect(row).not.toHaveTextContent(/account:/);
  });

  it('creates a block from the form, says so with the file version, empties the form, and removes it once confirmed', async () => {
    const { user } = renderRoute('/operator/blocks');
    await screen.findByRole('heading', { level: 1, name: 'Operator blocks' }, { timeout: 5000 });
    await user.type(screen.getByRole('textbox', { name: 'Pattern' }), 'casino.example');
    await user.click(screen.getByRole('radio', { name: 'Legal order' }));
    await user.click(screen.getByRole('button', { name: 'Create the block' }));

    expect(
      await screen.findByText(/^Blocked casino\.example: operator blocks file version \d+\.$/),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Pattern' })).toHaveValue('');
    const table = screen.getByRole('table', { name: 'Live operator blocks, newest first' });
    const row = await within(table).findByRole('row', { name: /casino\.example/ });
    expect(within(row).getByText('Legal order')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Remove casino.example' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Yes, remove casino.example',
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('row', { name: /casino\.example/ })).not.toBeInTheDocument(),
    );
    const live = await operator.admin.operatorBlocks.list({ status: 'live' }).toArray();
    expect(live.map((block) => block.pattern)).not.toContain('casino.example');
  });

  it('shows the API’s refusal at the field by its label, and creates nothing', async () => {
    const { user } = renderRoute('/operator/blocks');
    await screen.findByRole('heading', { level: 1, name: 'Operator blocks' }, { timeout: 5000 });
    const before = await operator.admin.operatorBlocks.list({ status: 'live' }).toArray();
    await user.type(screen.getByRole('textbox', { name: 'Pattern' }), 'not a pattern!');
    await user.click(screen.getByRole('button', { name: 'Create the block' }));

    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: /^Pattern/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Pattern' })).toBeInvalid();
    expect(await operator.admin.operatorBlocks.list({ status: 'live' }).toArray()).toHaveLength(
      before.length,
    );
  });
});

describe('operator audit page', () => {
  it('names actions in words and people by email, in a table that becomes a list on a phone', async () => {
    await operator.admin.operatorBlocks.create({ pattern: 'audited.example', reason_code: 'abuse' });
    renderRoute('/operator/audit');
    const table = await screen.findByRole(
      'table',
      { name: 'Audit entries of every organisation, newest first' },
      { timeout: 5000 },
    );
    expect(table).toHaveClass('responsive-table');
    const rows = await within(table).findAllByRole('row', { name: /Operator block added/ });
    for (const row of rows) {
      const by = within(row)
        .getAllByRole('cell')
        .find((cell) => cell.getAttribute('data-label') === 'By');
      await waitFor(() => expect(by).toHaveTextContent(operatorEmail));
    }
    expect(table).not.toHaveTextContent('admin.operator_block_created');
    expect(table).not.toHaveTextContent(/account:[0-9a-f-]{36}/);
  });
});
