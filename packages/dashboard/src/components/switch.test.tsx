import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '../testing/render-page.js';
import { Switch } from './switch.js';

function Setting() {
  const [on, setOn] = useState(false);
  return (
    <>
      <Switch
        label="Block newly registered domains"
        hint="Domains first seen in the last 30 days."
        checked={on}
        onChange={setOn}
      />
      <p>{on ? 'Saved: on' : 'Saved: off'}</p>
    </>
  );
}

/** A switch whose owner learns each change 200 ms late, as a query cache's readers do. */
function DeferredOwner({ intents }: { intents: boolean[] }) {
  const [on, setOn] = useState(false);
  return (
    <Switch
      label="Block typo-squatting"
      checked={on}
      onChange={(next) => {
        intents.push(next);
        setTimeout(() => setOn(next), 200);
      }}
    />
  );
}

describe(Switch.name, () => {
  it('is a switch named by its label, described by its hint, turned on and off by click and Space', async () => {
    const { user } = renderComponent(<Setting />);
    const control = screen.getByRole('switch', { name: 'Block newly registered domains' });
    expect(control).toHaveAccessibleDescription('Domains first seen in the last 30 days.');
    expect(control).not.toBeChecked();
    await user.click(control);
    expect(control).toBeChecked();
    expect(screen.getByText('Saved: on')).toBeInTheDocument();
    await user.keyboard(' ');
    expect(control).not.toBeChecked();
    expect(screen.getByText('Saved: off')).toBeInTheDocument();
  });

  it('undoes the first click with a second one made before its owner’s state came back (a query cache)', async () => {
    const intents: boolean[] = [];
    const { user } = renderComponent(<DeferredOwner intents={intents} />);
    const control = screen.getByRole('switch', { name: 'Block typo-squatting' });
    await user.click(control);
    expect(control).toBeChecked();
    await user.click(control);
    expect(intents).toEqual([true, false]);
    expect(control).not.toBeChecked();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(control).not.toBeChecked();
  });

  it('cannot be changed while disabled', async () => {
    const { user } = renderComponent(<Switch label="Log queries" defaultChecked disabled />);
    const control = screen.getByRole('switch', { name: 'Log queries' });
    await user.click(control);
    expect(control).toBeChecked();
    expect(control).toBeDisabled();
  });
});
