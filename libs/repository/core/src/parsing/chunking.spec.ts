import { DomainError } from '@svc/kernel';
import { chunkDocument, contentHash, documentText, normalizeDocument, SemanticNodeDraft } from './chunking';
import type { DocumentBlock, ParsedDocument } from './parsed-document';

const doc = (...blocks: DocumentBlock[]): ParsedDocument => ({ title: null, blocks });
const h = (level: number, text: string): DocumentBlock => ({ kind: 'heading', level, text });
const p = (text: string): DocumentBlock => ({ kind: 'paragraph', text });
const list = (...items: string[]): DocumentBlock => ({ kind: 'list', text: items.map((i) => `- ${i}`).join('\n') });
const table = (...rows: string[][]): DocumentBlock => ({ kind: 'table', text: rows.map((r) => r.join(' | ')).join('\n') });

/** A deterministic pseudo-random generator (mulberry32) so generated documents are reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['refund', 'customers', 'within', 'thirty', 'days', 'the', 'invoice', 'must', 'be', 'approved', 'by', 'finance', 'e.g.', 'approx.', 'délai', '📄', 'https://example.com/a/very/long/path', 'x'.repeat(70)];

function sentence(next: () => number): string {
  const n = 3 + Math.floor(next() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}${['.', '!', '?', '.'][Math.floor(next() * 4)]}`;
}

function paragraph(next: () => number, maxSentences: number): string {
  return Array.from({ length: 1 + Math.floor(next() * maxSentences) }, () => sentence(next)).join(next() < 0.2 ? '\n  ' : ' ');
}

function generatedDoc(seed: number): ParsedDocument {
  const next = rng(seed);
  const blocks: DocumentBlock[] = [];
  const count = 5 + Math.floor(next() * 40);
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.2) blocks.push(h(1 + Math.floor(next() * 4), sentence(next).slice(0, -1)));
    else if (r < 0.6) blocks.push(p(paragraph(next, r < 0.3 ? 40 : 4)));
    else if (r < 0.75) blocks.push(list(...Array.from({ length: 1 + Math.floor(next() * 30) }, () => paragraph(next, 2))));
    else if (r < 0.85) blocks.push(table(...Array.from({ length: 1 + Math.floor(next() * 30) }, () => [sentence(next), String(Math.floor(next() * 1000))])));
    else if (r < 0.92) blocks.push({ kind: 'code', text: Array.from({ length: 1 + Math.floor(next() * 60) }, (_, j) => `${'  '.repeat(j % 3)}line ${j} ${sentence(next)}`).join('\n') });
    else blocks.push(p('   '));
  }
  return doc(...blocks);
}

/** Every invariant chunkDocument promises, checked on one document. */
function expectInvariants(input: ParsedDocument, chunks: SemanticNodeDraft[], maxChars: number, overlapChars: number): void {
  const text = documentText(input);
  const blocks = normalizeDocument(input).blocks;
  const headings: { start: number; end: number; level: number; path: string[]; skipped: boolean }[] = [];
  const stack: { level: number; text: string }[] = [];
  let offset = 0;
  blocks.forEach((b, i) => {
    if (b.kind === 'heading') {
      while (stack.length > 0 && stack[stack.length - 1].level >= (b.level ?? 1)) stack.pop();
      stack.push({ level: b.level ?? 1, text: b.text });
      const next = blocks[i + 1];
      const skipped = next !== undefined && next.kind === 'heading' && (next.level ?? 1) > (b.level ?? 1);
      headings.push({ start: offset, end: offset + b.text.length, level: b.level ?? 1, path: stack.map((s) => s.text), skipped });
    }
    offset += b.text.length + 2;
  });

  const covered = new Uint8Array(text.length);
  chunks.forEach((c, i) => {
    expect(c.position).toBe(i);
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.text.length).toBeLessThanOrEqual(maxChars);
    expect(c.text).toBe(c.text.trim());
    expect(text.slice(c.charStart, c.charEnd)).toBe(c.text);
    if (i > 0) expect(c.charStart).toBeGreaterThan(chunks[i - 1].charStart);
    if (i > 0) expect(chunks[i - 1].charEnd - c.charStart).toBeLessThanOrEqual(overlapChars);
    // Never across two sections: no heading starts inside a chunk.
    expect(headings.some((hd) => hd.start > c.charStart && hd.start < c.charEnd)).toBe(false);
    const section = [...headings].reverse().find((hd) => hd.start <= c.charStart);
    expect(c.headingPath).toEqual(section ? section.path : []);
    covered.fill(1, c.charStart, c.charEnd);
  });
  // Each section's first chunk starts with its heading; nothing but skipped headings is left out.
  for (const hd of headings.filter((x) => !x.skipped)) expect(chunks.some((c) => c.charStart === hd.start)).toBe(true);
  for (let i = 0; i < text.length; i++) {
    if (covered[i] || /\s/.test(text[i])) continue;
    expect(headings.some((hd) => hd.skipped && i >= hd.start && i < hd.end)).toBe(true);
  }
}

describe('documentText and normalizeDocument', () => {
  it('joins the normalised, non-empty blocks with a blank line', () => {
    const input = doc(h(1, '  Refund   policy '), p('Customers\n  may ask\tfor a refund.'), p(' \n '), list('one', '  two  '), table(['a', 'b'], ['1', '2']));
    expect(documentText(input)).toBe('Refund policy\n\nCustomers may ask for a refund.\n\n- one\n- two\n\na | b\n1 | 2');
  });

  it('clamps heading levels, normalises the title and keeps code indentation relative', () => {
    const normalized = normalizeDocument({
      title: '  The\ntitle ',
      blocks: [
        { kind: 'heading', level: 9, text: 'Deep' },
        { kind: 'heading', text: 'No level' },
        { kind: 'code', text: '\n\n    if (x) {\n      y();   \n\n\n\n    }\n\n' },
        { kind: 'paragraph', text: 'zero\u200Bwidth\u0000 and e\u0301' },
      ],
    });
    expect(normalized.title).toBe('The title');
    expect(normalized.blocks).toEqual([
      { kind: 'heading', level: 6, text: 'Deep' },
      { kind: 'heading', level: 1, text: 'No level' },
      { kind: 'code', text: 'if (x) {\n  y();\n\n}' },
      { kind: 'paragraph', text: 'zerowidth and é' },
    ]);
    expect(normalizeDocument({ title: '   ', blocks: [] }).title).toBeNull();
  });
});

describe('chunkDocument', () => {
  describe('sections', () => {
    const input = doc(
      p('Welcome to the handbook.'),
      h(1, 'Refunds'),
      p('Refunds are possible.'),
      h(2, 'Deadlines'),
      p('Ask within 30 days.'),
      h(2, 'Exceptions'),
      p('Sales are final.'),
      h(1, 'Shipping'),
      list('Standard: 5 days', 'Express: 1 day'),
    );

    it('starts a chunk at every heading and keeps the heading path on each chunk', () => {
      const chunks = chunkDocument(input);
      expect(chunks.map((c) => [c.text, c.headingPath])).toEqual([
        ['Welcome to the handbook.', []],
        ['Refunds\n\nRefunds are possible.', ['Refunds']],
        ['Deadlines\n\nAsk within 30 days.', ['Refunds', 'Deadlines']],
        ['Exceptions\n\nSales are final.', ['Refunds', 'Exceptions']],
        ['Shipping\n\n- Standard: 5 days\n- Express: 1 day', ['Shipping']],
      ]);
      expectInvariants(input, chunks, 1200, 150);
    });

    it('gives a heading followed by a sub-heading no chunk of its own, but keeps a trailing or sibling heading', () => {
      const chunks = chunkDocument(doc(h(1, 'Policies'), h(2, 'Refunds'), p('Thirty days.'), h(2, 'Empty'), h(2, 'Returns'), p('Free.'), h(1, 'Appendix')));
      expect(chunks.map((c) => [c.text, c.headingPath])).toEqual([
        ['Refunds\n\nThirty days.', ['Policies', 'Refunds']],
        ['Empty', ['Policies', 'Empty']],
        ['Returns\n\nFree.', ['Policies', 'Returns']],
        ['Appendix', ['Appendix']],
      ]);
    });

    it('pops the heading path by level, whatever levels are skipped', () => {
      const chunks = chunkDocument(doc(h(1, 'A'), p('a'), h(3, 'A.x.1'), p('b'), h(2, 'A.y'), p('c'), h(4, 'deep'), p('d'), h(1, 'B'), p('e')));
      expect(chunks.map((c) => c.headingPath)).toEqual([['A'], ['A', 'A.x.1'], ['A', 'A.y'], ['A', 'A.y', 'deep'], ['B']]);
    });

    it('never packs two small sections together', () => {
      const chunks = chunkDocument(doc(h(2, 'One'), p('x'), h(2, 'Two'), p('y')), { maxChars: 1000 });
      expect(chunks.map((c) => c.text)).toEqual(['One\n\nx', 'Two\n\ny']);
    });

    it('makes room for the heading when the first paragraph is long', () => {
      const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
      const chunks = chunkDocument(doc(h(1, 'Deadlines'), p(long)), { maxChars: 200, overlapChars: 40 });
      expect(chunks[0].text.startsWith('Deadlines\n\nSentence number 0')).toBe(true);
      expect(chunks.every((c) => c.headingPath[0] === 'Deadlines' && c.text.length <= 200)).toBe(true);
      expectInvariants(doc(h(1, 'Deadlines'), p(long)), chunks, 200, 40);
    });

    it('splits an absurdly long heading rather than exceeding the bound', () => {
      const input = doc(h(1, 'word '.repeat(100)), p('body'));
      const chunks = chunkDocument(input, { maxChars: 120, overlapChars: 0 });
      expect(chunks.length).toBeGreaterThan(1);
      expectInvariants(input, chunks, 120, 0);
    });
  });

  describe('packing', () => {
    it('packs consecutive small blocks of a section up to maxChars', () => {
      const paragraphs = Array.from({ length: 12 }, (_, i) => p(`Paragraph ${i} says something short.`)); // 33-34 chars each
      const chunks = chunkDocument(doc(h(1, 'Notes'), ...paragraphs), { maxChars: 120, overlapChars: 20 });
      // 5 + 2 + 3 × 33 + 2 × 2 = 113 ≤ 120; a fourth paragraph would not fit.
      expect(chunks[0].text).toBe(['Notes', 'Paragraph 0', 'Paragraph 1', 'Paragraph 2'].map((t) => (t === 'Notes' ? t : `${t} says something short.`)).join('\n\n'));
      expect(chunks.slice(1).map((c) => c.text.split('\n\n').length)).toEqual([3, 3, 3]);
      expect(chunks.flatMap((c) => c.text.split('\n\n')).filter((t) => t.startsWith('Paragraph'))).toHaveLength(12);
      expectInvariants(doc(h(1, 'Notes'), ...paragraphs), chunks, 120, 20);
    });

    it('packs lists, tables and code with paragraphs when they fit', () => {
      const input = doc(p('Intro.'), list('a', 'b'), table(['k', 'v']), { kind: 'code', text: 'run()' });
      expect(chunkDocument(input).map((c) => c.text)).toEqual(['Intro.\n\n- a\n- b\n\nk | v\n\nrun()']);
    });

    it('returns nothing for an empty or blank document', () => {
      expect(chunkDocument(doc())).toEqual([]);
      expect(chunkDocument(doc(p(' \n\t '), { kind: 'list', text: '  \n ' }, h(2, ' ')))).toEqual([]);
    });
  });

  describe('long paragraphs', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Refund rule ${i} applies to orders placed in region ${i % 7}.`);
    const long = sentences.join(' ');

    it('splits at sentence boundaries with overlap between consecutive pieces', () => {
      const chunks = chunkDocument(doc(p(long)), { maxChars: 300, overlapChars: 80 });
      expect(chunks.length).toBeGreaterThan(5);
      for (const c of chunks) {
        expect(c.text.length).toBeLessThanOrEqual(300);
        expect(c.text.endsWith('.')).toBe(true);
        expect(c.text).toMatch(/^Refund rule \d+/);
      }
      for (let i = 1; i < chunks.length; i++) {
        const overlap = chunks[i - 1].charEnd - chunks[i].charStart;
        expect(overlap).toBeGreaterThan(0);
        expect(overlap).toBeLessThanOrEqual(80);
      }
      expect(chunks[chunks.length - 1].charEnd).toBe(long.length);
      expectInvariants(doc(p(long)), chunks, 300, 80);
    });

    it('splits without overlap when overlapChars is 0, losing nothing', () => {
      const chunks = chunkDocument(doc(p(long)), { maxChars: 250, overlapChars: 0 });
      expect(chunks.map((c) => c.text).join(' ')).toBe(long);
    });

    it('falls back to word boundaries when no sentence ends in reach', () => {
      const words = Array.from({ length: 300 }, (_, i) => `word${i}`);
      const chunks = chunkDocument(doc(p(words.join(' '))), { maxChars: 100, overlapChars: 30 });
      const known = new Set(words);
      for (const c of chunks) for (const w of c.text.split(' ')) expect(known.has(w)).toBe(true);
      expect(chunks[0].text.split(' ')[0]).toBe('word0');
      expect(chunks[chunks.length - 1].text.endsWith('word299')).toBe(true);
      expectInvariants(doc(p(words.join(' '))), chunks, 100, 30);
    });

    it('does not end a sentence at an abbreviation followed by a lower-case word', () => {
      const text = `${'Intro words here. '.repeat(3)}Send it e.g. the invoice or approx. two forms to finance.`;
      const chunks = chunkDocument(doc(p(text)), { maxChars: 80, overlapChars: 0 });
      expect(chunks.some((c) => c.text.endsWith('e.g.') || c.text.endsWith('approx.'))).toBe(false);
    });

    it('cuts a giant word anywhere but never inside a surrogate pair', () => {
      const emojis = '📄'.repeat(200);
      const chunks = chunkDocument(doc(p(`${'a'.repeat(450)} ${emojis}`)), { maxChars: 101, overlapChars: 10 });
      for (const c of chunks) {
        expect(c.text.length).toBeLessThanOrEqual(101);
        expect(c.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
      }
      expectInvariants(doc(p(`${'a'.repeat(450)} ${emojis}`)), chunks, 101, 10);
    });
  });

  describe('lists and tables', () => {
    it('keeps a list whole when it fits', () => {
      const chunks = chunkDocument(doc(h(1, 'Steps'), list('Open the form', 'Fill it', 'Send it')), { maxChars: 100, overlapChars: 10 });
      expect(chunks.map((c) => c.text)).toEqual(['Steps\n\n- Open the form\n- Fill it\n- Send it']);
    });

    it('splits a long list between items, never inside one', () => {
      const items = Array.from({ length: 40 }, (_, i) => `Item ${i}: bring document ${i}`);
      const input = doc(h(1, 'Checklist'), list(...items));
      const chunks = chunkDocument(input, { maxChars: 150, overlapChars: 30 });
      expect(chunks.length).toBeGreaterThan(3);
      const lines = chunks.flatMap((c) => c.text.split('\n').filter((l) => l !== '' && l !== 'Checklist'));
      expect(lines).toEqual(items.map((i) => `- ${i}`));
      expectInvariants(input, chunks, 150, 30);
    });

    it('splits a long table between rows', () => {
      const rows = Array.from({ length: 50 }, (_, i) => [`Plan ${i}`, `${i * 10} EUR`, i % 2 ? 'monthly' : 'yearly']);
      const input = doc(table(['Plan', 'Price', 'Billing'], ...rows));
      const chunks = chunkDocument(input, { maxChars: 200, overlapChars: 50 });
      for (const c of chunks) for (const line of c.text.split('\n')) expect(line).toMatch(/^Plan( \d+)? \| .+ \| \w+$/);
      expect(chunks.flatMap((c) => c.text.split('\n'))).toHaveLength(51);
      expectInvariants(input, chunks, 200, 50);
    });

    it('splits an item longer than maxChars like a paragraph', () => {
      const longItem = Array.from({ length: 20 }, (_, i) => `Clause ${i} holds.`).join(' ');
      const input = doc(list('short one', longItem, 'short two'));
      const chunks = chunkDocument(input, { maxChars: 100, overlapChars: 20 });
      expect(chunks[0].text).toBe('- short one');
      expect(chunks[1].text.startsWith('- Clause 0 holds.')).toBe(true);
      expect(chunks[chunks.length - 1].text.endsWith('short two')).toBe(true);
      expectInvariants(input, chunks, 100, 20);
    });

    it('splits long code between lines, without leading indentation', () => {
      const code = Array.from({ length: 30 }, (_, i) => `${'  '.repeat(i % 3)}statement_${i}();`).join('\n');
      const input = doc({ kind: 'code', text: code });
      const chunks = chunkDocument(input, { maxChars: 120, overlapChars: 0 });
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks.flatMap((c) => c.text.split('\n').map((l) => l.trim()))).toEqual(code.split('\n').map((l) => l.trim()));
      expectInvariants(input, chunks, 120, 0);
    });
  });

  describe('properties on generated documents', () => {
    const optionSets = [{}, { maxChars: 300, overlapChars: 60 }, { maxChars: 120, overlapChars: 0 }, { maxChars: 60, overlapChars: 30 }, { maxChars: 2000, overlapChars: 400 }];
    for (const seed of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]) {
      it(`holds every invariant for generated document #${seed}`, () => {
        const input = generatedDoc(seed);
        for (const options of optionSets) {
          const chunks = chunkDocument(input, options);
          expectInvariants(input, chunks, options.maxChars ?? 1200, options.overlapChars ?? 150);
        }
      });
    }
  });

  describe('determinism', () => {
    it('gives the same drafts for the same document and options', () => {
      const input = generatedDoc(42);
      expect(chunkDocument(input, { maxChars: 250, overlapChars: 50 })).toEqual(chunkDocument(structuredClone(input), { maxChars: 250, overlapChars: 50 }));
    });

    it('gives the same drafts whatever the whitespace layout', () => {
      const input = generatedDoc(7);
      const reflowed = doc(...input.blocks.map((b) => (b.kind === 'paragraph' ? { ...b, text: `\n ${b.text.replace(/ /g, '  \n')}\t` } : b)));
      expect(chunkDocument(reflowed, { maxChars: 300, overlapChars: 40 })).toEqual(chunkDocument(input, { maxChars: 300, overlapChars: 40 }));
    });

    it('uses 1200 characters and 150 of overlap by default', () => {
      const long = Array.from({ length: 200 }, (_, i) => `Rule ${i} is stated here.`).join(' ');
      const chunks = chunkDocument(doc(p(long)));
      expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThanOrEqual(1200);
      expect(Math.max(...chunks.map((c) => c.text.length))).toBeGreaterThan(1000);
      expect(chunks[0].charEnd - chunks[1].charStart).toBeLessThanOrEqual(150);
      expect(chunks[0].charEnd - chunks[1].charStart).toBeGreaterThan(100);
    });
  });

  it('rejects unusable options as a bug (internal), not as a parsing failure', () => {
    for (const options of [{ maxChars: 10 }, { maxChars: 1.5 }, { maxChars: 100, overlapChars: 51 }, { overlapChars: -1 }]) {
      let error: unknown;
      try {
        chunkDocument(doc(p('x')), options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: 'internal', code: 'REPOSITORY.INVALID_CHUNK_OPTIONS' });
    }
  });
});

describe('contentHash', () => {
  it('is the SHA-256 hex of the whitespace-normalised text', () => {
    expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentHash('  a\n b\t')).toBe(contentHash('a b'));
    expect(contentHash('a b')).not.toBe(contentHash('a c'));
    expect(contentHash('caf\u0065\u0301')).toBe(contentHash('caf\u00e9'));
  });
});
