import { plainTextProblem } from './plain-text';

describe('plainTextProblem', () => {
  it('accepts names in any script, with emoji and the bidi marks right-to-left text needs', () => {
    for (const name of ['Handbook', 'Été 2026 – RH', 'دليل الموظف\u200f', 'מדריך\u200e v2', '😀 Team 👩‍💻', '"quotes" <and> & ampersands']) {
      expect(plainTextProblem(name)).toBeUndefined();
    }
  });

  it('names the first control character, ANSI escape or bidirectional override of a name', () => {
    expect(plainTextProblem('red \u001b[31mALERT')).toBe('U+001B, a control character');
    expect(plainTextProblem('line\nbreak')).toBe('U+000A, a control character');
    expect(plainTextProblem('tab\there')).toBe('U+0009, a control character');
    expect(plainTextProblem('c1 \u0085 next line')).toBe('U+0085, a control character');
    expect(plainTextProblem('del\u007f')).toBe('U+007F, a control character');
    expect(plainTextProblem('invoice\u202eexe.pdf')).toBe('U+202E, a bidirectional override');
    expect(plainTextProblem('isolate \u2066x\u2069')).toBe('U+2066, a bidirectional override');
    expect(plainTextProblem('a\u2028b')).toBe('U+2028, a line separator');
  });

  it('lets a query hold tabs and line breaks, nothing else of the kind', () => {
    expect(plainTextProblem('How long\ndo refunds\r\n\ttake?', { lineBreaks: true })).toBeUndefined();
    expect(plainTextProblem('refunds \u001b[2J', { lineBreaks: true })).toBe('U+001B, a control character');
    expect(plainTextProblem('refunds \u202d', { lineBreaks: true })).toBe('U+202D, a bidirectional override');
  });

  it('checks megabytes in linear time', () => {
    const long = 'a'.repeat(5_000_000);
    const started = Date.now();
    expect(plainTextProblem(long)).toBeUndefined();
    expect(plainTextProblem(`${long}\u0007`)).toBe('U+0007, a control character');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
