import { readAppLocation } from './app-location';

/** A page as the service serves it: at `url`, with the relative base it injects and the auth URL. */
function page(url: string, base: string, authUrl = 'http://localhost:3000') {
  const doc = document.implementation.createHTMLDocument('app');
  Object.defineProperty(doc, 'baseURI', { value: new URL(base, url).href });
  const meta = doc.createElement('meta');
  meta.name = 'docaudit-auth-url';
  meta.content = authUrl;
  doc.head.append(meta);
  return doc;
}

describe('readAppLocation', () => {
  it('finds the app root, the API beside it and the auth URL, on the audit port', () => {
    expect(readAppLocation(page('http://localhost:3001/app/instances/ki_1/conflicts', '../../'))).toEqual({
      basepath: '/app/',
      apiBase: 'http://localhost:3001',
      authUrl: 'http://localhost:3000',
    });
  });

  it('works under a gateway path on one host (relative URLs only)', () => {
    expect(readAppLocation(page('https://docs.example.com/docaudit/app/', './', 'https://docs.example.com/docaudit/'))).toEqual({
      basepath: '/docaudit/app/',
      apiBase: 'https://docs.example.com/docaudit',
      authUrl: 'https://docs.example.com/docaudit',
    });
  });

  it('uses the API origin for the auth service when the page was not served by the service', () => {
    expect(readAppLocation(page('http://localhost:5173/app/', './', '__DOCAUDIT_AUTH_URL__')).authUrl).toBe('http://localhost:5173');
  });
});
