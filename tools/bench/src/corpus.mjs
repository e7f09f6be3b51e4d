// The benchmarks' seeded text generator: Markdown documents, node paragraphs and queries over a
// 4,000-word vocabulary with Zipf frequencies. `topical`: each document is about one of 300 subjects
// whose 40 favoured words make 60 % of its content words, as in real repositories; `uniform`: every
// word from the same Zipf law (a structureless word soup, the worst case for approximate search).
// Same seed, same texts.

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE_WORDS = `audit account access policy control review evidence finding risk owner approval request invoice payment refund
supplier contract renewal budget expense report quarter ledger balance reconciliation vendor customer order shipment delivery
warehouse inventory stock return claim warranty incident outage service latency backup restore database server network firewall
certificate password credential token session login user role permission group team manager director employee onboarding offboarding
training handbook holiday leave salary payroll benefit pension insurance health safety hazard inspection maintenance repair asset
laptop license software subscription renewal migration release deployment pipeline build test coverage defect ticket escalation
priority deadline milestone roadmap project proposal estimate forecast revenue margin pricing discount tax compliance regulation
privacy consent retention archive deletion export import document template signature workflow notification reminder schedule meeting
minutes agenda decision action follow committee board chair secretary member vote quorum resolution amendment clause article section
appendix glossary definition scope objective requirement specification interface protocol encryption key rotation monitoring alert
threshold capacity storage quota bandwidth region cluster node replica failover recovery continuity plan exercise drill vendor risk
assessment questionnaire attestation sample testing walkthrough remediation deadline exception waiver sign-off evidence folder`
  .split(/\s+/)
  .filter(Boolean);
const FILLER = 'the a of to and in for on with by from this that is are be will must should can may each every all any our their its as at or not'.split(' ');
const SYLLABLES = 'ka to ri mo ne sa lu vi de por tan mer quel gra bis fen dol car sti vor pla mun tek ros'.split(' ');

function buildVocabulary(random, size) {
  const words = [...new Set(BASE_WORDS)];
  const seen = new Set(words);
  while (words.length < size) {
    let w = '';
    const n = 2 + Math.floor(random() * 3);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  // Shuffle so the real words are spread over the Zipf ranks.
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [words[i], words[j]] = [words[j], words[i]];
  }
  return words;
}

/** Samples ranks with a Zipf (s = 1) distribution through a precomputed cumulative table. */
function zipfSampler(random, n) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Subjects of the topical corpus, the words each favours, and the share of its documents' content words drawn from them. */
const TOPICS = 300;
const TOPIC_WORDS = 40;
const TOPIC_SHARE = 0.6;
/** Subjects favour words outside the most frequent ones (which every text uses anyway). */
const TOPIC_MIN_RANK = 50;

export class Corpus {
  /** `kind`: `topical` or `uniform` (see BENCH_CORPUS). */
  constructor(seed, kind) {
    if (kind !== 'topical' && kind !== 'uniform') throw new Error(`unknown corpus "${kind}" (topical, uniform)`);
    this.random = mulberry32(seed);
    this.vocabulary = buildVocabulary(this.random, 4000);
    this.rank = zipfSampler(this.random, this.vocabulary.length);
    this.topical = kind === 'topical';
    const pick = () => this.vocabulary[TOPIC_MIN_RANK + Math.floor(this.random() * (this.vocabulary.length - TOPIC_MIN_RANK))];
    this.topics = Array.from({ length: TOPICS }, () => Array.from({ length: TOPIC_WORDS }, pick));
    this.topicRank = zipfSampler(this.random, TOPIC_WORDS);
    this.topic = 0;
  }
  /** Starts a document: draws its subject (topical corpus). */
  startDocument() {
    this.topic = Math.floor(this.random() * TOPICS);
  }
  int(min, max) {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  word() {
    if (this.random() < 0.3) return FILLER[Math.floor(this.random() * FILLER.length)];
    if (this.topical && this.random() < TOPIC_SHARE) return this.topics[this.topic][this.topicRank()];
    return this.vocabulary[this.rank()];
  }
  sentence() {
    const n = this.int(8, 18);
    const words = [];
    for (let i = 0; i < n; i++) words.push(this.word());
    const s = words.join(' ');
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  }
  /** A paragraph of about `words` words. */
  paragraph(words) {
    const out = [];
    let count = 0;
    while (count < words) {
      const s = this.sentence();
      count += s.split(' ').length;
      out.push(s);
    }
    return { text: out.join(' '), words: count };
  }
  title() {
    const n = this.int(2, 5);
    const words = [];
    for (let i = 0; i < n; i++) words.push(this.vocabulary[this.rank()]);
    return words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
  }
  /** A Markdown document of 150-400 words: title, intro, 2-4 sections (paragraphs, sometimes a list). */
  markdown() {
    this.startDocument();
    const target = this.int(150, 400);
    const sections = this.int(2, 4);
    const title = this.title();
    const parts = [`# ${title}`, ''];
    const intro = this.paragraph(Math.round(target * 0.15));
    parts.push(intro.text, '');
    let words = intro.words;
    for (let s = 0; s < sections; s++) {
      parts.push(`## ${this.title()}`, '');
      const budget = Math.max(20, Math.round((target - words) / (sections - s)));
      if (this.random() < 0.3) {
        const items = this.int(3, 5);
        for (let i = 0; i < items; i++) {
          const p = this.paragraph(Math.round(budget / (items + 1)));
          parts.push(`- ${p.text}`);
          words += p.words;
        }
        parts.push('');
      }
      const paragraphs = this.int(1, 2);
      for (let p = 0; p < paragraphs; p++) {
        const para = this.paragraph(Math.round(budget / paragraphs / (parts.at(-1) === '' && parts.at(-2)?.startsWith('- ') ? 2 : 1)));
        parts.push(para.text, '');
        words += para.words;
      }
    }
    return { title, content: parts.join('\n'), words };
  }
  /**
   * A search query: 2-4 content words, of one subject's words (topical) or of the whole vocabulary
   * (uniform; Zipf ranks, so frequent and rare terms both occur).
   */
  query() {
    const n = this.int(2, 4);
    const words = [];
    if (this.topical) this.startDocument();
    for (let i = 0; i < n; i++) words.push(this.topical ? this.topics[this.topic][this.topicRank()] : this.vocabulary[this.rank()]);
    return words.join(' ');
  }
}
