/** PageHeader({ title, description?, actions? }): the page's h1 (also sets document.title), a lead paragraph and actions. */
import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title';

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <header className="page-header">
      <div className="page-header-text">
        <h1>{title}</h1>
        {description ? <p className="lead">{description}</p> : null}
      </div>
      {actions ? <div className="page-header-actions">{actions}</div> : null}
    </header>
  );
}
