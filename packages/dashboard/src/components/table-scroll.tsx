import type { ReactNode } from 'react';

/**
 * A table wider than the screen scrolls sideways inside its own box, so the page itself never does (a phone
 * at 390 px). The box is a named region that takes the focus, so a keyboard can scroll it as a finger does.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
