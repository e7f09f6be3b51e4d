import '@mantine/core/styles.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { dashboardQuery } from '@/features/dashboard/api/get-dashboard';
import { createAuditClient } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { readAppLocation } from '@/lib/app-location';
import { initI18n, preferredLanguage, storedLanguage } from '@/lib/i18n';
import { Session } from '@/lib/session';

async function main(): Promise<void> {
  const location = readAppLocation(document);
  const session = new Session({
    authUrl: location.authUrl,
    currentUrl: () => window.location.href,
    leave: (url) => window.location.assign(url),
    language: () => preferredLanguage(storedLanguage(), navigator.languages),
  });
  const api = createAuditClient({ apiBase: location.apiBase, session });
  const queryClient = createQueryClient();
  const starting = session.start();
  // The dashboard's data is asked for while the first renewal runs, not after it (the dashboard's budget: interactive
  // within 1 s). A 401 waits for that same renewal and is sent again (sessionFetch); without a session the app leaves.
  if (window.location.pathname === location.basepath || `${window.location.pathname}/` === location.basepath) void queryClient.prefetchQuery(dashboardQuery(api));
  // The first renewal says whether there is a session at all: without one, straight to the login page.
  const [renewal] = await Promise.all([starting, initI18n(preferredLanguage(storedLanguage(), navigator.languages))]);
  if (renewal.kind === 'ended') return;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') session.wake();
  });
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App services={{ api, session, location }} queryClient={queryClient} />);
}

void main();
