import { foldedWords, foldText } from '../fold';
import { detectLanguage, Language } from '../language';
import { stem } from '../stem';
import { stopwordsOf } from '../stopwords';
import type { ValueKind } from '../values';
import { english } from './english-model';

/** What a question asks for. */
export type ExpectedAnswer =
  /** A typed value of one of these kinds. */
  | {
      form: 'value';
      kinds: ValueKind[];
      /** Quantities must match (`quantity:<unit>:...`): a weight question wants a mass. */
      units?: RegExp;
      /** Dates compare by year ("In which year...", "When was it built/founded?"). */
      byYear?: boolean;
    }
  /** Yes or no ("Are gift cards refundable?"). */
  | { form: 'yes-no' }
  /** A name or a short phrase ("Who directed...", "What is the profession of..."). */
  | { form: 'named'; relation: NamedRelation };

/** How a named answer is usually written, which tells where to find it in a sentence. */
export type NamedRelation = 'agent' | 'identity' | 'place' | 'responsible' | 'other';

export interface QuestionTerm {
  stem: string;
  /**
   * How much the term says about the subject, before rarity: names 1.3, verbs 0.5 (writers paraphrase
   * them: "replaced" and "renewed", "processed" and "issued"), other words 1.
   */
  salience: number;
  /** The word as the question wrote it. */
  surface: string;
  /**
   * The repository's word for one of the asker's that no retrieved passage writes (WordNet: "dog" for "spaniel"):
   * a sentence that writes it covers more of the question, one that does not covers no less.
   */
  borrowed?: boolean;
  /**
   * True for words that frame the answer rather than name the subject ("profession", "price",
   * "days"): an answering sentence often lacks them ("She is a mezzo-soprano").
   */
  framing: boolean;
}

export interface QuestionProfile {
  language: Language;
  expected: ExpectedAnswer;
  terms: QuestionTerm[];
}

/** Interrogative and auxiliary words: never content terms. */
const QUESTION_WORDS = new Set(
  (
    'how what which who whom whose when where why is are was were do does did can could may might must shall should will would has have had ' +
    'many much long often kind type name named called there any take takes get gets make makes need needs give gives ' +
    'comment quel quelle quels quelles qui quoi quand ou pourquoi combien est sont peut peuvent doit doivent faut il elle ils elles ce cette ' +
    // Indefinite words and adverbs of the asker's phrasing name no subject ("after paying for something", "and still have it shipped").
    'something anything someone anyone somebody anybody thing things stuff still also just even ever really actually please quelque chose'
  ).split(' '),
);

/** Words that say what form the answer takes: weak evidence that a sentence is about the question. */
const FRAMING = new Set(
  (
    'profession occupation job role work sport genre type kind nationality party location located place country city birthplace born ' +
    'price cost costs pay paid fee fees charge amount sum budget allowance rate rates percentage percent share weight weigh weighs heavy length size ' +
    'number count minimum maximum least most limit cap threshold deadline period days day weeks week months month years year hours hour ' +
    'minutes time times date dates delay duration frequency often long old age population value total ' +
    'metier poste prix cout couts montant taux pourcentage poids longueur taille nombre minimum maximum limite plafond seuil delai duree ' +
    'jours jour semaines semaine mois ans annee annees heures heure minutes date dates horaires frequence age valeur ' +
    // The bound of a time asked for: the typed value is the latest, earliest or cut-off time itself.
    'latest earliest cutoff tard tot'
  ).split(' '),
);

/**
 * Phrases that say a date or time starts something ("come into force", "take effect", "entre en vigueur"): the typed
 * value answers them, and documents word them otherwise ("new fares apply from 1 March"), so their words frame the
 * answer like "date" does, instead of naming the subject.
 */
const FRAMING_PHRASES = /\b(?:(?:come|comes|came|coming) into (?:force|effect|operation)|(?:enter|enters|entered|entering) into force|(?:take|takes|took|taking) effect|cut[- ]?off|entr\w* en vigueur|pren\w* effet|en vigueur)\b/gu;

/**
 * Interrogative phrases that ask for a length of time or a bound ("how far ahead", "how quickly", "how much notice",
 * "dans quel délai"): the typed value answers them, and documents rarely repeat their adverbs ("posted 10 days in
 * advance" for "how far ahead", "attend within 30 minutes" for "how quickly"), so their words frame the answer
 * instead of naming the subject, where they weighed as its rarest words.
 */
const FORM_PHRASES = /\bhow (?:far |much |long |many days )?(?:ahead|in advance|beforehand)\b|\bhow (?:quickly|fast|soon|early|late)\b|\bhow much notice\b|\bcombien de temps (?:a l'avance|avant)\b|\bdans quel delai\b|\ba quelle vitesse\b/gu;

const DURATION = /\b(how long|how far (?:ahead|in advance|beforehand)|how (?:much|long) (?:in advance|ahead|beforehand)|how much notice|how (?:quickly|fast)|how many (?:[\w-]+ ){0,2}(?:days|weeks|months|years|hours|minutes)|how soon|within how|how often|how frequently|combien de (?:jours|semaines|mois|ans|annees|heures|minutes)|quel(?:le)? (?:est (?:le|la) )?(?:delai|duree|frequence)|deadline|time limit|delai|duree)\b/u;
const EVERY = /\b(how often|how frequently|every how|a quelle frequence|tous les combien)\b/u;
const PERCENT = /\b(percentage|percent|what share|what proportion|quel pourcentage|pourcentage|taux|rate)\b/u;
/**
 * A charge that is often a share of something rather than a sum ("interest at 8% over base rate", "a 2% surcharge",
 * "commission of 5%"): an amount or a percentage answers it.
 */
const CHARGE = /\b(fee|fees|charge|charges|charged|interest|commission|commissions|surcharge|surcharges|penalty|penalties|deposit|levy|tax|frais|interets?|commissions?|penalites?|majoration|acompte|taxe)\b/u;
/** A discount or a reduction is stated as a percentage or as an amount. */
const DISCOUNT = /\b(discount|discounts|reduction|reductions|reduced|remise|remises|rabais)\b/u;
const AMOUNT = /\b(price|cost|costs|fee|fees|charge|pay|bill|billed|invoiced|how much extra|supplement|supplements|up ?front|paid(?! (?!for|to|by|in|on|per|at|back|out)[a-z])|reimburs\w*|refund\w* (?:up to|above)|budget|allowance|amount|salary|spend|spending|prix|cout|couts|montant|tarif|rembours\w*|plafond|budget|salaire|eur|euros?|usd|dollars?)\b/u;
const WEIGHT = /\b(weigh|weighs|weight|heavy|poids|pese)\b/u;
const BY_YEAR = /\b(?:which|what|in which|quelle|en quelle)\s+(?:year|annee)\b|^(?:year|annee)\b|^when (?:was|were|did) .*\b(built|founded|established|formed|created|opened|completed|constructed|released|published|launched|started|begin|began|start|debut\w*|incorporated|erected|introduced)\b/u;
const MASS = /^quantity:(?:kilogram|gram|milligram|pound|ounce|ton|tonne|metric ton)s?:/u;
const TIME = /\b(what times?|how (?:late|early)|(?:latest|earliest|closing|opening|cut-?off|start|starting|finishing) time|cut-?off|which hours|opening hours|business hours|hours|open|opens|close|closes|quelle heure|avant quelle heure|heure limite|derniere heure|horaires?|heures d'ouverture|ouvert)\b/u;
const DATE = /^(?:when|since when|quand|depuis quand)\b|\b(what date|which date|which year|what year|in which year|quelle date|en quelle annee|quelle annee|date of|date de)\b/u;
/** "By when", "until when": a deadline, written as a date ("by 31 March") or as a period ("within six months"). */
const BY_WHEN = /\b(?:by|until|till|up to) when\b|\b(?:jusqu ?a|d ici|avant) quand\b/u;
/**
 * "What's the latest I can cancel", "the earliest we can check in": a bound with no unit named, written as a time of day,
 * a date or a period before something ("48 hours before arrival").
 */
const BOUND = /\b(?:the|at the) (?:latest|earliest)\b(?! (?:date|day|time|hour|year|month|version|edition|news|update)s?\b)|\bau plus (?:tard|tot)\b/u;
/** "Whose job is it", "who is responsible": a role, a team or a person that answers for something. */
const WHOSE = /^(?:whose (?:job|responsibility|role|task|duty)|which (?:team|department|role|person|manager)|quel(?:le)? (?:service|equipe|personne|responsable))\b/u;
const COUNT = /\b(how many|how much|combien|minimum|maximum|at least|at most|limit|threshold|length|size|population|number of|nombre de|longueur|taille|au moins|above which|from which|a partir de quel)\b/u;
/**
 * An auxiliary or modal first ("Am I allowed...", "Can we..."), or a French inversion ("Puis-je...", "Les salariés
 * ont-ils droit...") in a question that opens with no interrogative word.
 */
const YES_NO = /^(?:am|is|are|was|were|do|does|did|can|could|may|might|must|shall|should|will|would|has|have|had|(?:isn|aren|don|doesn|can|won|shouldn|mustn)['’]t|est-ce|est ce|peut|peuvent|puis|pouvons|pouvez|doit|doivent|dois|devons|devez|faut|ai|avons|avez|suis|sommes|etes|a-t-on|a t on|y a-t-il|y a t il)\b|^(?!(?:how|what|which|where|why|when|who|comment|quel|quelle|quels|quelles|ou|quand|pourquoi|combien|que|qu|qui|a|depuis|jusqu)\b)[^?]*?-(?:t-)?(?:il|elle|ils|elles|on|je|nous|vous)\b/u;
const AGENT = /^(?:who|qui)\b.*\b(direct\w*|writ\w*|wrote|written|compos\w*|found\w*|creat\w*|produc\w*|design\w*|build|built|invent\w*|paint\w*|perform\w*|sing\w*|sang|play\w*|own\w*|publish\w*|develop\w*|realis\w*|ecri\w*|fond\w*|cre\w*)\b|\b(artist|author|director|composer|founder|creator|producer|designer|architect|owner|publisher|developer|singer|band|auteur|realisateur|compositeur|fondateur|createur)\b/u;
const IDENTITY = /\b(profession|occupation|job|sport|genre|nationality|party|religion|what is .+'s|who (?:is|was|are|were)\b|metier|nationalite|parti)\b/u;
/** "Who approves / signs off / decides / must be told": a role, a team or a person that answers for something. */
const RESPONSIBLE = /\b(approv\w*|sign\w*|authori[sz]\w*|decid\w*|responsib\w*|accountab\w*|in charge|notif\w*|inform\w*|tell|told|contact\w*|report\w*|escalat\w*|validat\w*|owns?|manag\w*|approuv\w*|autoris\w*|valid\w*|signe\w*|decide\w*|responsable|prevenir|previent|contacter|informer|charge)\b/u;
const PLACE = /^(?:where|ou)\b|\b(location|located|place of|birthplace|country|city|capital|headquarters|lieu|pays|ville|siege)\b/u;

/**
 * Reads a question: its language, what form of answer it asks for and its content terms. Rule-based,
 * English and French: interrogative patterns decide the form ("how long" → a duration, "how much ...
 * cost" → an amount, "is/are ..." → yes or no, "who directed" → a name written as an agent).
 */
export function profileQuestion(question: string, language: Language = detectLanguage(question)): QuestionProfile {
  const folded = foldText(question).replace(/\s+/gu, ' ').trim();
  const terms: QuestionTerm[] = [];
  const seen = new Set<string>();
  const salience = language === 'en' ? englishSalience(question) : new Map<string, number>();
  const phrased = new Set([...folded.matchAll(FRAMING_PHRASES), ...folded.matchAll(FORM_PHRASES)].flatMap((m) => foldedWords(m[0])));
  // Words only in the scene the asker sets ("Our train gets in at lunchtime.") weigh less than those of the clause that asks.
  const asked = new Set(foldedWords(interrogative(folded)));
  for (const written of foldedWords(question)) {
    const word = DERIVED[written] ?? written;
    if (QUESTION_WORDS.has(word) || (stopwordsOf(language).has(word) && !FRAMING.has(word)) || (word.length < 2 && !/\d/u.test(word))) continue;
    const s = stem(word, language);
    if (seen.has(s)) continue;
    seen.add(s);
    const scene = asked.has(written) || [...asked].some((w) => stem(DERIVED[w] ?? w, language) === s) ? 1 : SCENE_SALIENCE;
    terms.push({ stem: s, surface: written, framing: FRAMING.has(word) || phrased.has(written), salience: (salience.get(written) ?? 1) * scene });
  }
  // Words of a name ("The Charge of the Light Brigade") say nothing of the answer's form.
  const names = new Set([...salience].filter(([, f]) => f === POS_SALIENCE.PROPN).map(([w]) => w));
  const unnamed = names.size === 0 ? folded : folded.replace(/[\p{L}\p{N}]+/gu, (w) => (names.has(w) ? '_' : w));
  return { language, expected: expectedAnswer(interrogative(unnamed)), terms };
}

/**
 * The clause that asks: askers often set the scene first ("I rolled some days over from last year. By when do I have
 * to use them?", "You hold our stock in Leeds: what is the latest time...?"); the form of the answer is read from the
 * last sentence or clause before the question mark, the terms from the whole question.
 */
function interrogative(folded: string): string {
  const asked = folded.replace(/\?+\s*$/u, '');
  const parts = asked
    .split(/(?<=[.!:;])\s+|\s+[-–—]\s+/u)
    .map((p) => p.replace(/[.!:;]+$/u, '').trim())
    .filter((p) => /[\p{L}]/u.test(p));
  return parts.length > 1 ? `${parts[parts.length - 1]}?` : folded;
}

/** Salience factor of a word the asker writes only in the scene before the clause that asks. */
const SCENE_SALIENCE = 0.5;

/** Adjectives of period written as their noun in answers ("daily" allowance, "per day"). */
const DERIVED: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year', annually: 'year', hourly: 'hour', quotidien: 'jour', quotidienne: 'jour', hebdomadaire: 'semaine', mensuel: 'mois', mensuelle: 'mois', annuel: 'an', annuelle: 'an' };

const POS_SALIENCE: Record<string, number> = { PROPN: 1.3, VERB: 0.5 };

/** Salience of each folded word of an English question, from wink-nlp's part-of-speech tags. */
function englishSalience(question: string): Map<string, number> {
  const out = new Map<string, number>();
  const doc = english().readDoc(question);
  const values = doc.tokens().out(english().its.value) as string[];
  const tags = doc.tokens().out(english().its.pos) as string[];
  values.forEach((value, i) => {
    const factor = POS_SALIENCE[tags[i]];
    if (factor !== undefined) for (const w of foldedWords(value)) out.set(w, factor);
  });
  return out;
}

function expectedAnswer(q: string): ExpectedAnswer {
  // "Who ...": a person or a group, however the rest of the question reads.
  if (WHOSE.test(q)) return { form: 'named', relation: 'responsible' };
  if (/^(?:who|whom|qui|to whom|a qui|aupres de qui)\b/u.test(q)) return { form: 'named', relation: RESPONSIBLE.test(q) ? 'responsible' : AGENT.test(q) ? 'agent' : 'identity' };
  const kinds = new Set<ValueKind>();
  if (EVERY.test(q)) ['recurrence', 'duration'].forEach((k) => kinds.add(k as ValueKind));
  if (DURATION.test(q)) kinds.add('duration');
  if (PERCENT.test(q)) kinds.add('percentage');
  if (DISCOUNT.test(q)) ['percentage', 'amount'].forEach((k) => kinds.add(k as ValueKind));
  if (AMOUNT.test(q) || CHARGE.test(q)) kinds.add('amount');
  if (CHARGE.test(q)) kinds.add('percentage');
  if (WEIGHT.test(q)) kinds.add('quantity');
  if (TIME.test(q) && !DURATION.test(q)) ['time-range', 'time'].forEach((k) => kinds.add(k as ValueKind));
  if (DATE.test(q) && !TIME.test(q)) ['date', 'date-range'].forEach((k) => kinds.add(k as ValueKind));
  if (BY_WHEN.test(q)) ['date', 'date-range', 'duration'].forEach((k) => kinds.add(k as ValueKind));
  if (BOUND.test(q)) ['time-range', 'time', 'date', 'date-range', 'duration'].forEach((k) => kinds.add(k as ValueKind));
  // "When is the service desk available?": a bare "when" about something ongoing asks for a schedule as
  // readily as a date; one about an event ("When was it founded?") asks for a date only.
  if (/^(?:when|quand)\b/u.test(q) && !BY_YEAR.test(q) && !/^(?:when|quand) (?:was|were|did|will|a|ont|etait)\b/u.test(q)) ['time-range', 'time'].forEach((k) => kinds.add(k as ValueKind));
  if (COUNT.test(q) && kinds.size === 0) ['number', 'quantity', 'amount', 'percentage', 'duration'].forEach((k) => kinds.add(k as ValueKind));
  if (kinds.size > 0) return { form: 'value', kinds: [...kinds], units: WEIGHT.test(q) ? MASS : undefined, byYear: kinds.has('date') && BY_YEAR.test(q) };
  if (YES_NO.test(q)) return { form: 'yes-no' };
  if (AGENT.test(q)) return { form: 'named', relation: 'agent' };
  if (PLACE.test(q)) return { form: 'named', relation: 'place' };
  if (IDENTITY.test(q)) return { form: 'named', relation: 'identity' };
  return { form: 'named', relation: 'other' };
}
