/**
 * A seeded generator of policy-like documents with planted duplicates, for the duplicates evaluation and
 * the in-memory benchmark (tools/bench/src/duplicates-algorithm.bench.mjs). Same options, same corpus.
 *
 * Each document is about 1 KB of prose: a title, an introduction and two to four sections of sentences drawn
 * from templates of one of ten subjects (or of every subject), with word alternatives and facts (roles,
 * teams, systems, people, places, amounts, durations, dates) filled in, sometimes a bulleted list or a
 * two-column table. It is rendered in one of five layouts (Markdown in two styles, HTML, plain text with
 * wrapped lines and CRLF, Markdown with setext headings), so exact copies differ in bytes.
 *
 * Families planted among unrelated documents (the kinds and shares are {@link FAMILY_MIX}):
 * - `exact`: the same document in another layout (must cluster);
 * - `near`: a copy with a share of its words edited (`editRate`: runs of one to three words replaced,
 *   deleted or inserted, rendered in any layout); the rates of {@link NEAR_EDIT_RATES} put the word
 *   3-shingle Jaccard near 0.95, 0.9, 0.85 and 0.8 (must cluster);
 * - `exact+near`: a document, an exact copy and an edited copy (all three pairs must cluster);
 * - `far`: a copy with {@link FAR_EDIT_RATES} of its words edited, Jaccard near 0.5 to 0.6 (must not cluster);
 * - `lookalike`: the same sentences and wording with other facts, as two product sheets or two offices'
 *   versions of one policy template (must not cluster).
 * Which pairs are duplicates is the generator's intent, not a measured similarity: the evaluation reports
 * the Jaccards it measures per kind.
 */

/** Bound once: under Jest the globals sit behind a proxy, slow to look up in a hot loop. */
const imul = Math.imul;

/** Mulberry32: a small, fast, seeded PRNG (uniform in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FamilyKind = 'exact' | 'near' | 'exact+near' | 'far' | 'lookalike';

export interface GeneratedDocument {
  id: string;
  text: string;
}

export interface PlantedFamily {
  kind: FamilyKind;
  /** The original first. */
  ids: string[];
  /** Share of the words edited in the copy (0 for exact copies and look-alikes). */
  editRate: number;
}

export interface DuplicatesCorpus {
  documents: GeneratedDocument[];
  families: PlantedFamily[];
  /** Pairs that must be in one cluster ({@link pairKey}); every other pair must not. */
  duplicatePairs: Set<string>;
}

export interface DuplicatesCorpusOptions {
  documents: number;
  seed?: number;
}

/** Edit rates of the near copies: word 3-shingle Jaccard about 0.95, 0.9, 0.85 and 0.8. */
export const NEAR_EDIT_RATES = [0.012, 0.03, 0.048, 0.066] as const;
/** Edit rates of the far copies: Jaccard about 0.6 and 0.5. */
export const FAR_EDIT_RATES = [0.16, 0.22] as const;

/** Families per 1,000 documents, by kind (near and far families spread evenly over their rates). */
export const FAMILY_MIX: Record<FamilyKind, number> = { exact: 20, near: 80, 'exact+near': 10, far: 20, lookalike: 30 };

/** `a|b` with a < b: the key of an unordered pair of ids. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Every pair of documents inside one group, as {@link pairKey}s. */
export function pairsOf(groups: Iterable<readonly string[]>): Set<string> {
  const pairs = new Set<string>();
  for (const ids of groups) for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) pairs.add(pairKey(ids[i], ids[j]));
  return pairs;
}

export interface PairwiseScores {
  precision: number;
  recall: number;
  truePositives: number;
  predicted: number;
  expected: number;
}

/** Pairwise precision and recall of predicted groups against the expected pairs (1 when there is nothing to predict or find). */
export function pairwiseScores(predicted: Set<string>, expected: Set<string>): PairwiseScores {
  let truePositives = 0;
  for (const pair of predicted) if (expected.has(pair)) truePositives++;
  return {
    precision: predicted.size === 0 ? 1 : truePositives / predicted.size,
    recall: expected.size === 0 ? 1 : truePositives / expected.size,
    truePositives,
    predicted: predicted.size,
    expected: expected.size,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Vocabularies. `{slot}` is a fact, drawn again for a look-alike; `{a|b}` is a wording choice, kept.

const FIRST_NAMES = 'Anna Ben Chloe David Elena Farid Grace Hugo Ines Jonas Karin Liam Maya Nadia Oscar Paula Quentin Rosa Samir Tara Umar Vera Wim Xenia Yusuf Zoe Amir Bea Carlos Dana'.split(' ');
const LAST_NAMES = 'Adler Berg Costa Dumont Eriksen Fischer Garcia Hansen Ivanova Jensen Keller Laurent Moreau Novak Olsen Petit Quinn Rossi Schmidt Torres Ulrich Vidal Weber Young Zimmer Brandt Carver Duarte Engel Ferrari'.split(' ');
const CITIES = 'Lyon Leeds Porto Ghent Bremen Turin Malmo Cork Graz Brno Lille Utrecht Bilbao Aarhus Basel Nantes Krakow Dresden Galway Tampere Bergen Seville Bologna Rennes Antwerp Leipzig Cardiff Gdansk Split Lugano'.split(' ');
const ORG_PREFIX = 'North South East West Blue Green Red Silver Golden Iron Stone River Lake Hill Forest Harbor Summit Valley Bright Swift'.split(' ');
const ORG_SUFFIX = 'wind field gate bridge point works line ridge side wood port haven crest mark stone'.split(' ');
const ROLES = [
  'finance director', 'team lead', 'line manager', 'HR business partner', 'store manager', 'IT security manager', 'data protection officer',
  'procurement officer', 'head of operations', 'regional manager', 'service desk lead', 'payroll administrator', 'facilities manager',
  'legal counsel', 'quality manager', 'warehouse supervisor', 'customer service manager', 'chief financial officer', 'compliance officer', 'training coordinator',
];
const TEAMS = [
  'finance team', 'service desk', 'payroll team', 'legal team', 'procurement team', 'R&D team', 'facilities team', 'security team', 'HR team',
  'logistics team', 'support team', 'audit committee', 'sales team', 'quality team', 'works council', 'records office',
];
const SYSTEM_PARTS = 'People Procure Support Ledger Travel Asset Claim Time Access Vendor Policy Learn Ship Stock Desk'.split(' ');
const SYSTEM_SUFFIX = 'Hub Desk Point Flow Base Track Portal Net Link Center'.split(' ');
const ITEMS = [
  'laptop', 'mobile phone', 'access badge', 'company car', 'headset', 'monitor', 'store key', 'fuel card', 'corporate card', 'tablet',
  'safety boots', 'uniform', 'parking permit', 'desk phone', 'printer token',
];
const DOCUMENTS = [
  'expense report', 'purchase order', 'leave request', 'incident report', 'travel request', 'return form', 'risk assessment', 'supplier contract',
  'timesheet', 'invoice', 'credit note', 'training record', 'access request', 'change request', 'audit report',
];
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const FREQUENCIES = ['every month', 'every quarter', 'twice a year', 'once a year', 'every two years', 'every week', 'every three years'];
const UNITS = ['days', 'working days', 'weeks', 'hours', 'months'];

/** Words an editor puts in: the content words of the templates and facts, and common function words. */
const EDIT_WORDS = [
  ...'the a of to and in for on with by from this that is are be will must should can may each every all any our their its as at or not'.split(' '),
  ...'request approval employee manager customer supplier payment refund account record form policy process review report team office store system data'.split(' '),
  ...'local regional written formal urgent annual monthly standard internal external new previous current first final additional relevant'.split(' '),
];

interface SubjectTemplates {
  titles: string[];
  headings: string[];
  sentences: string[];
}

const SUBJECTS: SubjectTemplates[] = [
  {
    titles: ['Expense {reimbursement|claims} policy', 'Business expenses {guide|procedure}'],
    headings: ['Scope', 'Submitting a claim', 'Approval', 'Receipts', 'Payment', 'Exceptions'],
    sentences: [
      'Employees submit their {expense reports|claims} in {system} within {n} {unit} of the expense.',
      'Claims above {amount} must be approved by the {role} before they are paid.',
      'Every claim {needs|requires} an itemised receipt; a card slip alone is not enough.',
      'The {team} reimburses approved claims with the next salary payment, usually within {n} {unit}.',
      'Meals are reimbursed up to {amount} per day when you travel to {city}.',
      'Claims submitted more than {n} {unit} late are {refused|not reimbursed} unless the {role} agrees.',
      'Personal expenses charged to a {item} are repaid within {n} {unit}.',
      'Questions about a claim go to {person} in the {team}.',
    ],
  },
  {
    titles: ['Annual leave {policy|rules}', 'Holidays and time off'],
    headings: ['Entitlement', 'Booking leave', 'Carry-over', 'Public holidays', 'Leaving the company'],
    sentences: [
      'Full-time employees are entitled to {n} days of paid leave per year.',
      'Leave is booked in {system} at least {n} {unit} in advance and approved by your {role}.',
      'Up to {n} unused days can be carried over to the next year and must be taken before the end of {month}.',
      'During the peak season in {month}, no more than {n} people of one team may be on leave at the same time.',
      'Employees in {city} follow the public holidays of their region.',
      'When you leave the company, untaken leave is paid out by the {team}.',
      'Part-time employees receive leave in proportion to their working hours.',
      'Requests for unpaid leave are {decided|reviewed} by the {role} within {n} {unit}.',
    ],
  },
  {
    titles: ['Password {policy|guidelines}', 'Account security {standard|rules}'],
    headings: ['Passwords', 'Multi-factor authentication', 'Locked accounts', 'Shared accounts', 'Reporting'],
    sentences: [
      'Passwords must be at least {n} characters long.',
      'We recommend passphrases of {n} or more unrelated words, which are easier to remember and harder to guess.',
      'Multi-factor authentication is {required|mandatory} for {system} and every remote connection.',
      'An account is locked for {n} minutes after {n} failed sign-in attempts.',
      'The {team} can unlock an account after checking your identity.',
      'Passwords are personal and are never shared, not even with your {role}.',
      'Report a suspected leak to the {team} at once, and change the password {immediately|the same day}.',
      'Administrator accounts are reviewed {frequency} by the {role}.',
    ],
  },
  {
    titles: ['Purchasing {procedure|policy}', 'Procurement {rules|guide}'],
    headings: ['Before you buy', 'Quotes', 'Purchase orders', 'Approval limits', 'Suppliers'],
    sentences: [
      'Purchases above {amount} need {n} written quotes from different suppliers.',
      'Every purchase is raised as a purchase order in {system} before the supplier is contacted.',
      'Orders up to {amount} are approved by the {role}; larger orders also by the {role}.',
      'New suppliers are checked by the {team} before their first order, which takes about {n} {unit}.',
      'Framework contracts with {org} cover office supplies and must be used where they apply.',
      'Invoices without a purchase order number are returned to the supplier.',
      'The {team} reviews the list of approved suppliers {frequency}.',
      'Gifts from suppliers worth more than {amount} are declined and reported to the {role}.',
    ],
  },
  {
    titles: ['IT equipment {policy|requests}', 'Laptops and devices'],
    headings: ['Standard equipment', 'Requesting a device', 'Replacement', 'Loss and theft', 'Returning equipment'],
    sentences: [
      'Every new employee receives a {item} and a {item} on their first day.',
      'Requests for additional equipment are made in {system} and approved by your {role}.',
      'Laptops are replaced {frequency}, or earlier when a repair would cost more than {amount}.',
      'A lost or stolen {item} is reported to the {team} within {n} hours.',
      'Returned devices are wiped and kept in the store room in {city} for {n} {unit}.',
      'Software is installed only by the {team} from the approved catalogue.',
      'Personal devices may connect to the guest network only.',
      'Equipment is returned to {person} on your last working day.',
    ],
  },
  {
    titles: ['Customer refunds {policy|procedure}', 'Returns and refunds'],
    headings: ['Eligibility', 'How to return', 'Refund timing', 'Store credit', 'Damaged goods'],
    sentences: [
      'Customers can return an item within {n} days of delivery, with the receipt.',
      'Refunds are {processed|issued} within {n} {unit} after the {team} receives the returned item.',
      'Refunds above {amount} must be approved by the {role} before they are paid.',
      'On request, a customer can receive store credit instead of a refund.',
      'Items damaged in transport are collected by {org} at no cost to the customer.',
      'Returned goods are inspected at the warehouse in {city} before they go back to stock.',
      'Sale items are refunded at the price paid, not the original price.',
      'The {role} reviews refund statistics {frequency}.',
    ],
  },
  {
    titles: ['Business travel {policy|rules}', 'Travel {guide|procedure}'],
    headings: ['Booking', 'Transport', 'Hotels', 'Allowances', 'Safety'],
    sentences: [
      'Business trips are booked through {system} at least {n} {unit} before departure.',
      'Trains are preferred to flights for journeys under {n} hours.',
      'Hotels in {city} are reimbursed up to {amount} per night, breakfast included.',
      'Economy class is the rule; business class needs the approval of the {role}.',
      'The daily allowance for trips abroad is {amount}.',
      'Travellers register their trip with the {team} so they can be reached in an emergency.',
      'Rental cars are booked in the smallest category that fits the team.',
      'Travel reports are filed with {person} within {n} {unit} of the return.',
    ],
  },
  {
    titles: ['Incident {escalation|response} procedure', 'Support escalation {guide|rules}'],
    headings: ['Priorities', 'First response', 'Escalation', 'Communication', 'Closing a case'],
    sentences: [
      'A priority 1 case is a safety issue or a lost order worth more than {amount}.',
      'First response within {n} hours for priority 1 cases and {n} hours for the others.',
      'An agent escalates a case to the {team} when it is not resolved after {n} hours.',
      'Priority 1 cases are escalated to the {role} immediately, by phone.',
      'The customer is informed of every escalation by email within {n} hours.',
      'A case is closed only when the customer confirms the solution or does not answer for {n} days.',
      'The {role} reviews escalated cases {frequency} with {person}.',
      'Suspected data breaches are handed to the {team}, which follows the incident response plan.',
    ],
  },
  {
    titles: ['Remote work {policy|arrangements}', 'Working from home'],
    headings: ['Eligibility', 'Core hours', 'Equipment', 'Costs', 'Health and safety'],
    sentences: [
      'Employees may work remotely up to {n} days per week, in agreement with their {role}.',
      'Core hours are from {n}:00 to {n}:00, when everyone can be reached.',
      'The company provides a {item} and a {item} for the home office.',
      'A monthly allowance of {amount} covers internet and electricity costs.',
      'Employees working from {city} follow the local rules on working time.',
      'Remote work abroad is limited to {n} days per year and needs the approval of the {team}.',
      'Confidential documents are not printed at home.',
      'Accidents at home during working hours are reported to {person} within {n} days.',
    ],
  },
  {
    titles: ['Data {classification|handling} policy', 'Information {security|handling} rules'],
    headings: ['Classes', 'Labelling', 'Storage', 'Sharing', 'Retention'],
    sentences: [
      'Information is classified as public, internal, confidential or restricted by its owner.',
      'Confidential documents carry a label in the footer and are stored in {system}.',
      'Restricted data is encrypted at rest and shared only with named people approved by the {role}.',
      'Customer data is kept for {n} years after the last order and then deleted.',
      'The {team} reviews access rights to confidential folders {frequency}.',
      'Paper records are destroyed with the shredding service of {org}.',
      'Data shared with suppliers requires a signed agreement checked by the {team}.',
      'Questions about a classification go to {person}, the {role}.',
    ],
  },
];

/** Sentences any subject may use: policy boilerplate, shared across documents as in real repositories. */
const COMMON_SENTENCES = [
  'This {policy|procedure} applies to every employee of {org}, in every office and store.',
  'It was approved by the {role} in {month} {year} and is reviewed {frequency}.',
  'Version {n}.{n}, approved by the {role} in {month} {year}.',
  'Managers make sure their teams know and follow these rules.',
  'Exceptions are {requested|asked for} in writing from the {role}, who answers within {n} {unit}.',
  'Breaches of this {policy|procedure} may lead to disciplinary action.',
  'Questions are answered by the {team} at {email}.',
  'The {team} keeps the records for {n} years.',
  'Contact {person} in {city} for anything this document does not cover.',
  'Previous versions of this document are archived in {system}.',
];

/** One sentence of a plan: a template, its wording choices (kept by look-alikes) and its facts (redrawn). */
interface PlannedSentence {
  template: string;
  choices: number[];
  facts: string[];
}

interface Section {
  heading: PlannedSentence;
  sentences: PlannedSentence[];
  /** Rendered as a bulleted list. */
  list: boolean;
}

/** A document before rendering: its plan, and the words of each sentence once filled in. */
interface Plan {
  title: PlannedSentence;
  intro: PlannedSentence[];
  sections: Section[];
  table: [PlannedSentence, PlannedSentence][];
}

/** A filled document: sentences as word arrays, so that edits and layouts work on words. */
interface Filled {
  title: string[];
  intro: string[][];
  sections: { heading: string[]; sentences: string[][]; list: boolean }[];
  table: [string[], string[]][];
}

const SLOT = /\{([a-z]+)\}|\{([^{}]*\|[^{}]*)\}/g;

class Generator {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = mulberry32(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)];
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  fact(slot: string): string {
    switch (slot) {
      case 'n':
        return String(this.pick([2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 15, 20, 24, 30, 45, 48, 60, 72, 90]));
      case 'amount':
        return `${this.pick([50, 75, 100, 120, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000, 2500, 5000, 10000]).toLocaleString('en-GB')} ${this.pick(['EUR', 'GBP', 'CHF'])}`;
      case 'unit':
        return this.pick(UNITS);
      case 'role':
        return this.pick(ROLES);
      case 'team':
        return this.pick(TEAMS);
      case 'system':
        return this.pick(SYSTEM_PARTS) + this.pick(SYSTEM_SUFFIX);
      case 'item':
        return this.pick(ITEMS);
      case 'document':
        return this.pick(DOCUMENTS);
      case 'person':
        return `${this.pick(FIRST_NAMES)} ${this.pick(LAST_NAMES)}`;
      case 'city':
        return this.pick(CITIES);
      case 'org':
        return `${this.pick(ORG_PREFIX)}${this.pick(ORG_SUFFIX)} ${this.pick(['Ltd', 'GmbH', 'SA', 'Group', 'Services', 'Logistics'])}`;
      case 'month':
        return this.pick(MONTHS);
      case 'year':
        return String(this.int(2015, 2026));
      case 'frequency':
        return this.pick(FREQUENCIES);
      case 'email':
        return `${this.pick(['help', 'policies', 'hr', 'finance', 'it', 'support'])}@${this.pick(ORG_PREFIX).toLowerCase()}${this.pick(ORG_SUFFIX)}.example`;
      default:
        throw new Error(`unknown slot {${slot}}`);
    }
  }

  plan(template: string): PlannedSentence {
    const choices: number[] = [];
    const facts: string[] = [];
    for (const m of template.matchAll(SLOT)) {
      if (m[1]) facts.push(this.fact(m[1]));
      else choices.push(Math.floor(this.random() * m[2].split('|').length));
    }
    return { template, choices, facts };
  }

  /** The same wording with other facts: every fact drawn again until it differs. */
  refact(sentence: PlannedSentence): PlannedSentence {
    const slots = [...sentence.template.matchAll(SLOT)].filter((m) => m[1]).map((m) => m[1]);
    const facts = slots.map((slot, i) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const value = this.fact(slot);
        if (value !== sentence.facts[i]) return value;
      }
      return sentence.facts[i];
    });
    return { ...sentence, facts };
  }

  /** A document of about 1 KB (1.0 to 1.4 KB of Markdown, 150 to 220 words). */
  document(): Plan {
    const subject = this.chance(0.85) ? this.pick(SUBJECTS) : undefined;
    const sentencePool = subject ? [...subject.sentences, ...COMMON_SENTENCES] : [...SUBJECTS.flatMap((s) => s.sentences), ...COMMON_SENTENCES];
    const headings = subject ? subject.headings : SUBJECTS.flatMap((s) => s.headings);
    const titles = subject ? subject.titles : SUBJECTS.flatMap((s) => s.titles);
    const order = this.shuffle([...sentencePool]);
    let next = 0;
    const sentence = () => this.plan(order[next++ % order.length]);
    const plan: Plan = { title: this.plan(this.pick(titles)), intro: [sentence(), sentence()], sections: [], table: [] };
    const sectionCount = this.int(2, 4);
    const headingOrder = this.shuffle([...headings]);
    const target = this.int(95, 130);
    let words = 0;
    for (let s = 0; s < sectionCount || words < target; s++) {
      if (words >= target + 20) break;
      const section: Section = { heading: this.plan(headingOrder[s % headingOrder.length]), sentences: [], list: this.chance(0.3) };
      const count = this.int(2, 4);
      for (let i = 0; i < count; i++) section.sentences.push(sentence());
      words += section.sentences.reduce((sum, p) => sum + p.template.split(' ').length, 0);
      plan.sections.push(section);
    }
    if (this.chance(0.25)) {
      for (let r = 0; r < this.int(2, 4); r++) plan.table.push([this.plan(this.pick(['Approver', 'Deadline', 'Contact', 'Owner', 'Review'])), this.plan(this.pick(['{role}', '{n} {unit}', '{person}', '{team}', '{frequency}']))]);
    }
    return plan;
  }

  lookalike(plan: Plan): Plan {
    return {
      title: plan.title,
      intro: plan.intro.map((p) => this.refact(p)),
      sections: plan.sections.map((s) => ({ ...s, sentences: s.sentences.map((p) => this.refact(p)) })),
      table: plan.table.map(([k, v]) => [k, this.refact(v)]),
    };
  }

  shuffle<T>(values: T[]): T[] {
    for (let i = values.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [values[i], values[j]] = [values[j], values[i]];
    }
    return values;
  }

  /**
   * A copy with `rate` of its words edited: runs of one to three words replaced (70 %), deleted (15 %) or
   * preceded by inserted words (15 %), at random places of the body (the title stays).
   */
  edit(doc: Filled, rate: number): Filled {
    const copy: Filled = structuredClone(doc);
    const sentences = [...copy.intro, ...copy.sections.flatMap((s) => s.sentences), ...copy.table.map(([, v]) => v)];
    const total = sentences.reduce((sum, s) => sum + s.length, 0);
    let budget = Math.max(1, Math.round(rate * total));
    while (budget > 0) {
      const sentence = this.pick(sentences);
      if (sentence.length === 0) continue;
      const run = Math.min(budget, this.int(1, 3));
      const at = this.int(0, sentence.length - 1);
      const kind = this.random();
      if (kind < 0.7) {
        for (let i = at; i < Math.min(sentence.length, at + run); i++) sentence[i] = this.pick(EDIT_WORDS);
      } else if (kind < 0.85 && sentence.length > run + 2) {
        sentence.splice(at, run);
      } else {
        sentence.splice(at, 0, ...Array.from({ length: run }, () => this.pick(EDIT_WORDS)));
      }
      budget -= run;
    }
    return copy;
  }
}

function fill(sentence: PlannedSentence): string[] {
  let choice = 0;
  let fact = 0;
  const text = sentence.template.replace(SLOT, (_m, slot: string | undefined, alternatives: string | undefined) =>
    slot ? sentence.facts[fact++] : (alternatives as string).split('|')[sentence.choices[choice++]],
  );
  return text.split(' ');
}

function fillPlan(plan: Plan): Filled {
  return {
    title: fill(plan.title),
    intro: plan.intro.map(fill),
    sections: plan.sections.map((s) => ({ heading: fill(s.heading), sentences: s.sentences.map(fill), list: s.list })),
    table: plan.table.map(([k, v]) => [fill(k), fill(v)]),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Layouts: five renderings of the same words, which canonicalText must bring to one text.

type Layout = (doc: Filled) => string;

const words = (w: string[]) => w.join(' ');
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Markdown, `-` bullets, pipe tables with a header. */
const markdownDash: Layout = (doc) => {
  const out = [`# ${words(doc.title)}`, '', doc.intro.map(words).join(' '), ''];
  for (const s of doc.sections) {
    out.push(`## ${words(s.heading)}`, '');
    if (s.list) out.push(...s.sentences.map((x) => `- ${words(x)}`), '');
    else out.push(s.sentences.map(words).join(' '), '');
  }
  if (doc.table.length > 0) out.push('| Topic | Detail |', '| --- | --- |', ...doc.table.map(([k, v]) => `| ${words(k)} | ${words(v)} |`), '');
  return out.join('\n');
};

/** Markdown, `*` and numbered bullets, bold first words, one sentence per line, closing heading marks, aligned table. */
const markdownStar: Layout = (doc) => {
  const bold = (w: string[]) => (w.length > 1 ? `**${w[0]}** ${words(w.slice(1))}` : words(w));
  const out = [`# ${words(doc.title)} #`, '', ...doc.intro.map(bold), ''];
  doc.sections.forEach((s, i) => {
    out.push(`### ${words(s.heading)}`, '');
    if (s.list) out.push(...s.sentences.map((x, n) => (i % 2 === 0 ? `* ${words(x)}` : `${n + 1}. ${words(x)}`)), '');
    else out.push(...s.sentences.map(words), '');
  });
  if (doc.table.length > 0) out.push('|Topic|Detail|', '|:---|---:|', ...doc.table.map(([k, v]) => `|${words(k)}|${words(v)}|`), '');
  return out.join('\n');
};

/** HTML with entities. */
const html: Layout = (doc) => {
  const e = (w: string[]) => escapeHtml(words(w));
  const out = ['<!DOCTYPE html>', '<html><body>', `<h1>${e(doc.title)}</h1>`, `<p>${doc.intro.map(e).join(' ')}</p>`];
  for (const s of doc.sections) {
    out.push(`<h2>${e(s.heading)}</h2>`);
    out.push(s.list ? `<ul>${s.sentences.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : `<p>${s.sentences.map(e).join('<br>\n')}</p>`);
  }
  if (doc.table.length > 0) out.push(`<table><tr><th>Topic</th><th>Detail</th></tr>${doc.table.map(([k, v]) => `<tr><td>${e(k)}</td><td>${e(v)}</td></tr>`).join('')}</table>`);
  out.push('</body></html>');
  return out.join('\n');
};

/** Plain text: upper-case headings, paragraphs wrapped at 60 columns with double spaces, CRLF line ends, tab-separated table. */
const plain: Layout = (doc) => {
  const wrap = (text: string) => text.replace(/(.{1,60})(?: |$)/g, '$1\n').trimEnd();
  const out = [words(doc.title).toUpperCase(), '', wrap(doc.intro.map(words).join('  ')), ''];
  for (const s of doc.sections) out.push(words(s.heading).toUpperCase(), '', wrap(s.sentences.map(words).join('  ')), '');
  if (doc.table.length > 0) out.push('Topic\tDetail', ...doc.table.map(([k, v]) => `${words(k)}\t${words(v)}`), '');
  return out.join('\r\n');
};

/** Markdown with setext headings, `+` bullets, indented paragraphs and trailing spaces. */
const markdownSetext: Layout = (doc) => {
  const title = words(doc.title);
  const out = [title, '='.repeat(title.length), '', `  ${doc.intro.map(words).join(' ')}  `, ''];
  for (const s of doc.sections) {
    const heading = words(s.heading);
    out.push(heading, '-'.repeat(heading.length), '');
    if (s.list) out.push(...s.sentences.map((x) => `+   ${words(x)}`), '');
    else out.push(s.sentences.map(words).join('\n'), '');
  }
  if (doc.table.length > 0) out.push('| Topic | Detail |', '|-------|--------|', ...doc.table.map(([k, v]) => `| ${words(k)} | ${words(v)} |`), '');
  return out.join('\n');
};

export const LAYOUTS: readonly Layout[] = [markdownDash, markdownStar, html, plain, markdownSetext];

// ---------------------------------------------------------------------------------------------------------

/**
 * `documents` documents: the families of {@link FAMILY_MIX} (scaled to the size), the rest unrelated, in a
 * shuffled order with ids `doc-000000`… that say nothing of their family.
 */
export function generateDuplicatesCorpus(options: DuplicatesCorpusOptions): DuplicatesCorpus {
  const g = new Generator(options.seed ?? 20261126);
  const texts: string[] = [];
  const familyIndices: { kind: FamilyKind; members: number[]; editRate: number }[] = [];
  const add = (doc: Filled, layout = g.pick(LAYOUTS)) => texts.push(layout(doc)) - 1;
  const scale = options.documents / 1000;
  const count = (kind: FamilyKind) => Math.round(FAMILY_MIX[kind] * scale);
  const room = (members: number) => texts.length + members <= options.documents;

  for (let i = 0; i < count('exact') && room(2); i++) {
    const doc = fillPlan(g.document());
    const layouts = g.shuffle([...LAYOUTS]);
    familyIndices.push({ kind: 'exact', members: [add(doc, layouts[0]), add(doc, layouts[1])], editRate: 0 });
  }
  for (let i = 0; i < count('near') && room(2); i++) {
    const rate = NEAR_EDIT_RATES[i % NEAR_EDIT_RATES.length];
    const doc = fillPlan(g.document());
    familyIndices.push({ kind: 'near', members: [add(doc), add(g.edit(doc, rate))], editRate: rate });
  }
  for (let i = 0; i < count('exact+near') && room(3); i++) {
    const rate = NEAR_EDIT_RATES[i % NEAR_EDIT_RATES.length];
    const doc = fillPlan(g.document());
    const layouts = g.shuffle([...LAYOUTS]);
    familyIndices.push({ kind: 'exact+near', members: [add(doc, layouts[0]), add(doc, layouts[1]), add(g.edit(doc, rate))], editRate: rate });
  }
  for (let i = 0; i < count('far') && room(2); i++) {
    const rate = FAR_EDIT_RATES[i % FAR_EDIT_RATES.length];
    const doc = fillPlan(g.document());
    familyIndices.push({ kind: 'far', members: [add(doc), add(g.edit(doc, rate))], editRate: rate });
  }
  for (let i = 0; i < count('lookalike') && room(2); i++) {
    const plan = g.document();
    familyIndices.push({ kind: 'lookalike', members: [add(fillPlan(plan)), add(fillPlan(g.lookalike(plan)))], editRate: 0 });
  }
  while (texts.length < options.documents) add(fillPlan(g.document()));

  // Ids in a shuffled order, so neither the id nor the position tells a family.
  const ids = g.shuffle(texts.map((_, i) => i)).map((n) => `doc-${String(n).padStart(6, '0')}`);
  const documents = texts.map((text, i) => ({ id: ids[i], text })).sort((a, b) => (a.id < b.id ? -1 : 1));
  const families = familyIndices.map((f) => ({ kind: f.kind, ids: f.members.map((m) => ids[m]), editRate: f.editRate }));
  const duplicatePairs = pairsOf(families.filter((f) => f.kind === 'exact' || f.kind === 'near' || f.kind === 'exact+near').map((f) => f.ids));
  return { documents, families, duplicatePairs };
}
