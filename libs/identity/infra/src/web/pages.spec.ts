import { loginPage, pageLanguage } from './pages';

describe('sign-in page language', () => {
  it.each([
    ['fr', 'en-US,en;q=0.9', 'fr'],
    ['en', 'fr-FR,fr;q=0.9', 'en'],
    [undefined, 'fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    [undefined, 'de-DE,en;q=0.5,fr;q=0.7', 'fr'],
    [undefined, 'fr;q=0, en', 'en'],
    [undefined, undefined, 'en'],
    ['de', 'de-DE', 'en'],
    [['fr'], 'en', 'en'],
  ])('lang %j with Accept-Language %j reads %s', (requested, accept, expected) => {
    expect(pageLanguage(requested, accept)).toBe(expected);
  });

  it('writes the login form in French, the language carried through the form, values escaped', () => {
    const html = loginPage({ csrf: 'c', next: 'https://app.example/x', email: '"a"@b.c', error: 'Adresse e-mail ou mot de passe incorrect.', language: 'fr' });
    expect(html).toContain('<h1>Connexion à docaudit</h1>');
    expect(html).toContain('<label for="password">Mot de passe</label>');
    expect(html).toContain('<button type="submit">Se connecter</button>');
    expect(html).toContain('<input type="hidden" name="lang" value="fr">');
    expect(html).toContain('value="&quot;a&quot;@b.c"');
    expect(html).not.toMatch(/Sign in|Password/u);
  });

  it('stays English by default', () => {
    expect(loginPage({ csrf: 'c', next: '/' })).toContain('<h1>Sign in to docaudit</h1>');
  });
});
