/** Where the app is mounted and where the APIs answer, read from the page the service served. */
export interface AppLocation {
  /** The app's path, with a trailing slash (`/app/`, or `/docaudit/app/` behind a gateway): the router's basepath. */
  basepath: string;
  /** The audit API's root URL, without a trailing slash: the parent of the app's path on the same origin. */
  apiBase: string;
  /** The auth service's URL (PUBLIC_AUTH_URL), without a trailing slash: login page, cookie refresh and logout. */
  authUrl: string;
}

/**
 * The service serves index.html with a relative `<base href>` (`./`, `../`...) naming the app's root
 * whatever the route, and the auth service's URL in a meta tag. Every URL is derived from those, so
 * the app works on the audit port and behind a gateway that mounts it under any path.
 */
export function readAppLocation(doc: Document): AppLocation {
  const appRoot = new URL('./', doc.baseURI);
  const apiBase = new URL('../', appRoot).href.replace(/\/$/, '');
  const declared = doc.querySelector<HTMLMetaElement>('meta[name="docaudit-auth-url"]')?.content ?? '';
  const authUrl = /^https?:\/\//.test(declared) ? declared.replace(/\/$/, '') : apiBase;
  return { basepath: appRoot.pathname, apiBase, authUrl };
}
