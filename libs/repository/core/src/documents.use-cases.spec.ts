import { isDomainError } from '@svc/kernel';
import { serialisedWebUrl } from './documents.use-cases';

describe('serialisedWebUrl', () => {
  it('stores a link in its WHATWG serialisation: quotes, angle brackets and spaces percent-encoded', () => {
    expect(serialisedWebUrl('https://intranet.example/wiki/"a"<b>?q="x"<y>#"f"<g>')).toBe('https://intranet.example/wiki/%22a%22%3Cb%3E?q=%22x%22%3Cy%3E#%22f%22%3Cg%3E');
    expect(serialisedWebUrl('HTTPS://Intranet.EXAMPLE:443/a\\b')).toBe('https://intranet.example/a/b');
    expect(serialisedWebUrl('https://bücher.example/été')).toBe('https://xn--bcher-kva.example/%C3%A9t%C3%A9');
    expect(serialisedWebUrl('http://intranet:8080/wiki/Link?x=1#top')).toBe('http://intranet:8080/wiki/Link?x=1#top');
  });

  it('refuses what is no http: or https: link, and a link too long once encoded, naming the field', () => {
    for (const url of ['javascript:alert(1)', 'https://', 'http://a b/', 'https://exa<mple.com/', `https://x.example/${'"'.repeat(700)}`]) {
      let error: unknown;
      try {
        serialisedWebUrl(url);
      } catch (e) {
        error = e;
      }
      expect(isDomainError(error) && { kind: error.kind, code: error.code, field: error.errors?.[0]?.field }).toEqual({ kind: 'invalid', code: 'REPOSITORY.INVALID_URL', field: 'url' });
    }
  });
});
