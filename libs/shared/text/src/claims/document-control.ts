import { foldText } from '../fold';

/**
 * What a document's head says of the document itself, as document control writes it: its reference, version and
 * effective date, what it supersedes, and whether it says it is superseded or withdrawn. Read from the first lines
 * only (a title block or a metadata list), English and French.
 */
export interface DocumentControl {
  /** Its title: the first heading of its head, else its name without folders, extension or separators. */
  title: string;
  /** A reference code ("FIN-POL-02", "HR/07"); null when it gives none. */
  reference: string | null;
  /** Its version as numbers ("3.1" → [3, 1]); null when it gives none. */
  version: number[] | null;
  /** Its effective or issue date as YYYY-MM-DD (day 01 when only a month is given); null when it gives none. */
  effective: string | null;
  /** What its "Supersedes:" / "Replaces:" / "Remplace :" line names, folded; null when none. */
  supersedes: string | null;
  /** It says it is superseded, replaced, withdrawn, archived or obsolete. */
  withdrawn: boolean;
}

/** The part of a document read for its control data: its first lines. */
const HEAD_CHARACTERS = 1500;

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, janvier: 1, february: 2, feb: 2, fevrier: 2, march: 3, mar: 3, mars: 3, april: 4, apr: 4, avril: 4, may: 5, mai: 5, june: 6, jun: 6, juin: 6,
  july: 7, jul: 7, juillet: 7, august: 8, aug: 8, aout: 8, september: 9, sep: 9, sept: 9, septembre: 9, october: 10, oct: 10, octobre: 10,
  november: 11, nov: 11, novembre: 11, december: 12, dec: 12, decembre: 12,
};

/** A field line of a metadata block: "- **Version:** 3.0", "Version 3.0", "| Reference | FIN-02 |", "Date d'effet : 1er mars 2023". */
const field = (labels: string) => new RegExp(`(?:^|[\\n|*_-])\\s*[*_]*\\s*(?:${labels})\\s*[*_]*\\s*(?:[:|]|\\s)\\s*[*_]*\\s*([^\\n|]{1,120})`, 'iu');
const REFERENCE = field('reference|ref\\.?|document (?:reference|number|no\\.?|id)|policy (?:number|no\\.?|reference)|référence|réf\\.?|code');
const VERSION = field('version|revision|rev\\.?|révision|édition|edition|issue');
const EFFECTIVE = field("effective(?: date| from)?|in force (?:from|since)|date of (?:issue|effect)|issued(?: on)?|date d'(?:effet|application|entrée en vigueur)|en vigueur (?:le|depuis|à compter du)|applicable (?:from|du|à compter du)|date");
const SUPERSEDES = /(?:^|[\n|*_-])\s*[*_]*\s*(?:supersedes|replaces|remplace|annule et remplace)\s*[*_]*\s*:?\s*[*_]*\s*([^\n|]{3,200})/iu;
/** The document says of itself that it no longer applies. */
const WITHDRAWN = new RegExp(
  [
    "\\bthis (?:document|policy|procedure|version|guide|handbook|manual|schedule|page|faq|standard|notice) (?:is|has been|was) (?:now )?(?:superseded|replaced|withdrawn|archived|retired)\\b",
    '\\bsuperseded by\\b',
    '\\bstatus\\s*[*_]*\\s*[:|]?\\s*[*_]*\\s*(?:superseded|withdrawn|archived|obsolete|retired)\\b',
    '\\b(?:cette|ce) (?:politique|procédure|version|document|guide|note|fiche|règle|règlement|charte) (?:est|a été) (?:désormais )?(?:remplacée?|abrogée?|archivée?|retirée?)\\b',
    '\\b(?:statut|état)\\s*[*_]*\\s*[:|]?\\s*[*_]*\\s*(?:remplacée?|abrogée?|archivée?|obsolète|caduque?)',
  ].join('|'),
  'iu',
);

export function readDocumentControl(name: string, text: string): DocumentControl {
  const head = text.slice(0, HEAD_CHARACTERS);
  const heading = /^\s*#\s+(.+)$/mu.exec(head)?.[1];
  const value = (re: RegExp) => re.exec(head)?.[1].replace(/[*_`]/gu, '').trim() ?? null;
  const reference = value(REFERENCE);
  const version = value(VERSION);
  const effective = value(EFFECTIVE);
  const supersedes = value(SUPERSEDES);
  return {
    title: titleOf(heading ?? name),
    reference: reference && /^[\p{L}\d][\p{L}\d./_-]*\d[\p{L}\d./_-]*$/u.test(reference) && /[\p{L}]/u.test(reference) ? reference.toUpperCase() : null,
    version: version ? versionOf(version) : null,
    effective: effective ? dateOf(effective) : null,
    supersedes: supersedes ? foldText(supersedes) : null,
    withdrawn: WITHDRAWN.test(head),
  };
}

/** A title or a document's name, compared across versions: no folders, extension, years, version numbers or separators. */
export function titleOf(nameOrHeading: string): string {
  const base = nameOrHeading.split('/').pop()!.replace(/\.(?:md|markdown|html?|txt|pdf|docx?)$/iu, '');
  return foldText(base)
    .replace(/[_\-–—()[\]]+/gu, ' ')
    .replace(/\b(?:19|20)\d\d\b/gu, ' ')
    .replace(/\b(?:v|version|rev|revision)\s*\d+(?:\.\d+)*\b/gu, ' ')
    .replace(/\b(?:old|archive[d]?|superseded|ancien(?:ne)?|obsolete)\b/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

function versionOf(text: string): number[] | null {
  const match = /^\s*v?\s*(\d{1,3}(?:\.\d{1,3}){0,3})\b/iu.exec(text) ?? /^\s*([A-Z])\b/u.exec(text);
  if (!match) return null;
  // A revision letter (A, B, C) orders as its rank.
  return /^[A-Z]$/u.test(match[1]) ? [match[1].charCodeAt(0) - 64] : match[1].split('.').map(Number);
}

function dateOf(text: string): string | null {
  const folded = foldText(text);
  const iso = /\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/u.exec(folded);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const numeric = /\b(\d{1,2})[/.](\d{1,2})[/.]((?:19|20)\d\d)\b/u.exec(folded);
  if (numeric) return `${numeric[3]}-${numeric[2].padStart(2, '0')}-${numeric[1].padStart(2, '0')}`;
  const words = /\b(?:(\d{1,2})(?:st|nd|rd|th|er)?\s+)?([a-z]{3,9})\.?,?\s+(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?((?:19|20)\d\d)\b/u.exec(folded);
  if (words && MONTHS[words[2]]) return `${words[4]}-${String(MONTHS[words[2]]).padStart(2, '0')}-${(words[1] ?? words[3] ?? '1').padStart(2, '0')}`;
  return null;
}

/** -1, 0 or 1: a before b, the same, or after; null when they cannot be compared. */
function order(a: DocumentControl, b: DocumentControl): number | null {
  if (a.version && b.version) {
    for (let i = 0; i < Math.max(a.version.length, b.version.length); i++) {
      const d = (a.version[i] ?? 0) - (b.version[i] ?? 0);
      if (d !== 0) return Math.sign(d);
    }
  }
  if (a.effective && b.effective && a.effective !== b.effective) return a.effective < b.effective ? -1 : 1;
  return a.version && b.version ? 0 : null;
}

/** Whether a "Supersedes:" line names this document: its title's words, or its version or effective year with its reference. */
function names(line: string, older: DocumentControl): boolean {
  const words = older.title.split(' ').filter((w) => w.length > 2);
  const titled = words.length > 0 && words.every((w) => line.includes(w));
  const versioned = older.version !== null && new RegExp(`\\b${older.version.join('\\.')}\\b`, 'u').test(line);
  const dated = older.effective !== null && line.includes(older.effective.slice(0, 4));
  const referenced = older.reference !== null && line.includes(older.reference.toLowerCase());
  return (titled || referenced) && (versioned || dated || older.version === null);
}

/**
 * The documents a newer one replaces, each with the one replacing it (null when it says it is withdrawn and no
 * replacement is among them). A document is superseded when another names it in its "Supersedes" line, when it
 * says so itself, or when another carries its reference with a later version or date. Two documents of one title
 * and no such line are not versions of each other: a site's policy and another site's often share a title.
 */
export function supersededDocuments(documents: readonly { id: string; control: DocumentControl }[]): Map<string, string | null> {
  const superseded = new Map<string, string | null>();
  const newer = (a: { control: DocumentControl }, b: { control: DocumentControl }) => order(a.control, b.control) === -1;
  for (const older of documents) {
    const replacement =
      documents.find((d) => d !== older && d.control.supersedes !== null && names(d.control.supersedes, older.control) && !newer(d, older) && !d.control.withdrawn) ??
      documents.find((d) => d !== older && older.control.reference !== null && d.control.reference === older.control.reference && newer(older, d) && !d.control.withdrawn) ??
      (older.control.withdrawn ? documents.find((d) => d !== older && d.control.title === older.control.title && !d.control.withdrawn) : undefined);
    if (replacement) superseded.set(older.id, replacement.id);
    else if (older.control.withdrawn) superseded.set(older.id, null);
  }
  return superseded;
}
