/** useDocumentTitle(title): sets document.title to "<title> · Loadplane" while the component is shown. */
import { useEffect } from 'react';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Loadplane` : 'Loadplane';
  }, [title]);
}
