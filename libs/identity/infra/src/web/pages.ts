import type { Response } from 'express';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #767676; border-radius: 4px; }
  button { margin-top: 1.5rem; padding: .6rem 1.2rem; font-size: 1rem; border-radius: 4px; border: 1px solid #0b57d0; background: #0b57d0; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #0b57d0; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f9a825; outline-offset: 2px; }
  .error { color: #b3261e; background: #fce8e6; padding: .6rem; border-radius: 4px; }
  ul { padding-left: 1.2rem; }
  code { background: #eef; padding: 0 .2rem; }
`;

/**
 * Sends a server-rendered page with headers that forbid framing, scripts and caching: the pages work
 * without JavaScript and nothing on them can be clickjacked or replayed from a cache. `same-origin`
 * referrers (not `no-referrer`): with `no-referrer`, browsers send `Origin: null` on the forms' POSTs.
 */
export function sendPage(res: Response, status: number, title: string, body: string, language: PageLanguage = 'en'): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .setHeader('Content-Language', language)
    .setHeader('Vary', 'Accept-Language')
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)} · docaudit</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
    );
}

/** The languages of the sign-in pages, the web app's. */
export type PageLanguage = 'en' | 'fr';

/**
 * The language of a sign-in page: the one the web app asks for (`lang`, carried through the form), else the first of
 * English and French in the browser's Accept-Language (by quality), else English.
 */
export function pageLanguage(requested: unknown, acceptLanguage: string | undefined): PageLanguage {
  if (requested === 'en' || requested === 'fr') return requested;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { primary: tag.split('-')[0], q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => x.q > 0 && (x.primary === 'en' || x.primary === 'fr'))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranked[0]?.primary as PageLanguage | undefined) ?? 'en';
}

/** What the sign-in pages say, per language (the French with its no-break spaces before « ? » and « : »). */
export const PAGE_TEXT = {
  en: {
    signInTitle: 'Sign in',
    signInHeading: 'Sign in to docaudit',
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    formExpired: 'Your sign-in form expired or came from another site. Please try again.',
    tooMany: (minutes: number) => `Too many sign-in attempts. Try again in ${minutes} minute(s).`,
    wrongCredentials: 'The e-mail or password is incorrect.',
  },
  fr: {
    signInTitle: 'Connexion',
    signInHeading: 'Connexion à docaudit',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    formExpired: 'Le formulaire de connexion a expiré ou vient d’un autre site. Veuillez réessayer.',
    tooMany: (minutes: number) => `Trop de tentatives de connexion. Réessayez dans ${minutes}\u00a0minute(s).`,
    wrongCredentials: 'Adresse e-mail ou mot de passe incorrect.',
  },
} satisfies Record<PageLanguage, unknown>;

export function loginPage(options: { csrf: string; next: string; email?: string; error?: string; language?: PageLanguage }): string {
  const language = options.language ?? 'en';
  const t = PAGE_TEXT[language];
  return `<h1>${escapeHtml(t.signInHeading)}</h1>
${options.error ? `<p class="error" role="alert" id="login-error">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/auth/login" ${options.error ? 'aria-describedby="login-error"' : ''}>
  <input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
  <input type="hidden" name="next" value="${escapeHtml(options.next)}">
  <input type="hidden" name="lang" value="${language}">
  <label for="email">${escapeHtml(t.email)}</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
  <label for="password">${escapeHtml(t.password)}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">${escapeHtml(t.signIn)}</button>
</form>`;
}

const SCOPE_TEXT: Record<string, string> = {
  'audit:read': 'read audit findings, documents and statistics of the instances you can see',
  'audit:write': 'record answers, close, ignore and manage audit findings as you could',
  'retrieval:read': 'search the document repositories you can see',
  'retrieval:write': 'manage repository settings you are allowed to manage',
};

export function consentPage(options: { csrf: string; request: string; clientName: string; clientId: string; redirectHost: string; scopes: readonly string[]; resource: string; userEmail: string }): string {
  return `<h1>Allow ${escapeHtml(options.clientName)}?</h1>
<p>Signed in as <strong>${escapeHtml(options.userEmail)}</strong>.</p>
<p><strong>${escapeHtml(options.clientName)}</strong> (client <code>${escapeHtml(options.clientId)}</code>, returning to <code>${escapeHtml(options.redirectHost)}</code>)
asks to act for you on <code>${escapeHtml(options.resource)}</code> and to:</p>
<ul>${options.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('')}</ul>
<p>You can withdraw this permission at any time on your <a href="/auth/account">account page</a>.</p>
<form method="post" action="/oauth/consent">
  <input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
  <input type="hidden" name="request" value="${escapeHtml(options.request)}">
  <button type="submit" name="decision" value="approve">Allow</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`;
}

export function accountPage(options: { csrf: string; name: string; email: string; roles: readonly string[]; consents: Array<{ client_id: string; client_name: string | null; scopes: readonly string[] }> }): string {
  const consents =
    options.consents.length === 0
      ? '<p>No application may act for you.</p>'
      : `<ul>${options.consents
          .map(
            (c) => `<li><strong>${escapeHtml(c.client_name ?? c.client_id)}</strong>: ${c.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}
  <form method="post" action="/auth/account/withdraw"><input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}"><input type="hidden" name="client_id" value="${escapeHtml(c.client_id)}"><button type="submit" class="secondary">Withdraw</button></form></li>`,
          )
          .join('')}</ul>`;
  return `<h1>Your account</h1>
<p>Signed in as <strong>${escapeHtml(options.name)}</strong> (<span id="account-email">${escapeHtml(options.email)}</span>), roles ${options.roles.map((r) => `<code>${escapeHtml(r)}</code>`).join(' ')}.</p>
<h2>Applications you allowed</h2>
${consents}
<form method="post" action="/auth/cookie-logout"><input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}"><button type="submit">Sign out</button></form>`;
}

export function messagePage(title: string, message: string): string {
  return `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><p><a href="/auth/login">Sign in</a></p>`;
}
