import en from './en.json';
import fr from './fr.json';

type Catalogue = { [key: string]: string | Catalogue };

/** Every key of a catalogue, dotted (`conflict.groupsTitle_one`). */
function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)));
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** Keys without their plural suffix: languages need different plural forms of the same key. */
const baseKeys = (catalogue: Catalogue) => [...new Set(keysOf(catalogue).map((key) => key.replace(PLURAL_SUFFIX, '')))].sort();

const catalogues: Record<string, Catalogue> = { en, fr };

describe('translation catalogues', () => {
  it('have the same keys in English and French', () => {
    expect(baseKeys(fr)).toEqual(baseKeys(en));
  });

  it.each(Object.keys(catalogues))('%s gives every plural key each form its language uses (Intl.PluralRules)', (language) => {
    const catalogue = catalogues[language] as Catalogue;
    const keys = new Set(keysOf(catalogue));
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const plurals = [...new Set([...keys].filter((k) => PLURAL_SUFFIX.test(k)).map((k) => k.replace(PLURAL_SUFFIX, '')))];
    expect(plurals.length).toBeGreaterThan(0);
    const missing = plurals.flatMap((base) => forms.filter((form) => !keys.has(`${base}_${form}`)).map((form) => `${base}_${form}`));
    expect(missing).toEqual([]);
  });

  it.each(Object.keys(catalogues))('%s has no empty text and keeps the placeholders of the English text', (language) => {
    const english = new Map(keysOf(en).map((k) => [k.replace(PLURAL_SUFFIX, ''), k]));
    const textOf = (catalogue: Catalogue, key: string) => key.split('.').reduce<Catalogue | string>((node, part) => (node as Catalogue)[part] as Catalogue | string, catalogue) as string;
    for (const key of keysOf(catalogues[language] as Catalogue)) {
      const text = textOf(catalogues[language] as Catalogue, key);
      expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      const englishKey = english.get(key.replace(PLURAL_SUFFIX, '')) as string;
      const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(textOf(en, englishKey)) });
    }
  });
});
