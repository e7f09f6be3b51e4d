import { useEffect } from 'react';

/** The tab's title names the view (and what it shows), as screen readers announce it on navigation. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · docaudit`;
  }, [title]);
}
