import { type ReactNode, useId } from 'react';
import './prompt.css';

/**
 * A step the service asks for (the code of a second factor, the password again before a sensitive change):
 * shown as a neutral panel with a heading, never as an error. It is no alert, carries no reference to quote,
 * and leaves focus to the field it asks for.
 */
export function Prompt({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="prompt-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
