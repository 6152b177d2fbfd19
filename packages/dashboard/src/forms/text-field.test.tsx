import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '../testing/render-page.js';
import { TextField } from './text-field.js';

describe('TextField', () => {
  it('is found by its label, and its hint is read out with it', () => {
    renderComponent(<TextField name="name" label="Token name" hint="What uses it." />);

    const input = screen.getByRole('textbox', { name: 'Token name' });
    expect(input).toHaveAccessibleDescription('What uses it.');
    expect(input).not.toBeInvalid();
  });

  it("says the API's error above the control, named by its label, and marks the control invalid", () => {
    renderComponent(<TextField name="name" label="Token name" hint="What uses it." error="is required" />);

    const input = screen.getByRole('textbox', { name: 'Token name' });
    expect(input).toBeInvalid();
    // The space after "Error:" sits in a visually hidden span, which jsdom's name computation trims.
    expect(input).toHaveAccessibleDescription(/^What uses it\. Error: ?Token name is required$/);
  });

  it('keeps an error that starts with a capital as the API wrote it', () => {
    renderComponent(<TextField name="ip" label="IPv4 address" error="Not an IPv4 address." />);

    expect(screen.getByRole('textbox', { name: 'IPv4 address' })).toHaveAccessibleDescription(
      /^Error: ?Not an IPv4 address\.$/,
    );
  });
});
