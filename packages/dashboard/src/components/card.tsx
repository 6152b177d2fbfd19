import type { ReactNode } from 'react';

/**
 * A card: a titled region set apart from the page (a labelled section, so screen readers list it). Lay several
 * out with `<div className="card-grid">`.
 */
export function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
