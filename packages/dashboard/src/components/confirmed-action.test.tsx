import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderComponent } from '../testing/render-page.js';
import { ConfirmedAction } from './confirmed-action.js';

describe(ConfirmedAction.name, () => {
  const render = (onConfirm: () => void) =>
    renderComponent(
      <ConfirmedAction
        label="Remove"
        ariaLabel="Remove ads.example"
        confirmLabel="Yes, remove ads.example"
        warning="Queries for it resolve again at once."
        pending={false}
        onConfirm={onConfirm}
      />,
    );

  it('asks in an alert dialog named after what it acts on, and acts once on the confirming button', async () => {
    const onConfirm = vi.fn();
    const { user } = render(onConfirm);
    const trigger = screen.getByRole('button', { name: 'Remove ads.example' });
    await user.click(trigger);
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove ads.example' });
    expect(within(dialog).getByText('Queries for it resolve again at once.')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Yes, remove ads.example' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('does nothing on "Keep it" or Escape, and gives the focus back to the button', async () => {
    const onConfirm = vi.fn();
    const { user } = render(onConfirm);
    const trigger = screen.getByRole('button', { name: 'Remove ads.example' });
    await user.click(trigger);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await user.click(trigger);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(trigger).toHaveFocus());
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
