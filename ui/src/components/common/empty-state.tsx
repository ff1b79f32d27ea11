/** EmptyState({ title, children }): a panel saying there is nothing here yet and what to do next (children: text, actions). */
import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
