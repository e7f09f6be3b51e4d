import '@mantine/core/styles.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { createAuditClient } from '@/lib/api-client';
import { readAppLocation } from '@/lib/app-location';
import { initI18n, preferredLanguage, storedLanguage } from '@/lib/i18n';
import { Session } from '@/lib/session';

async function main(): Promise<void> {
  const location = readAppLocation(document);
  const session = new Session({ authUrl: location.authUrl, currentUrl: () => window.location.href, leave: (url) => window.location.assign(url) });
  // The first renewal says whether there is a session at all: without one, straight to the login page.
  const [renewal] = await Promise.all([session.start(), initI18n(preferredLanguage(storedLanguage(), navigator.languages))]);
  if (renewal.kind === 'ended') return;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') session.wake();
  });
  const api = createAuditClient({ apiBase: location.apiBase, session });
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App services={{ api, session, location }} />);
}

void main();
