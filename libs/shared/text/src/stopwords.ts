/**
 * English and French function and question words, accent-folded and lower-cased like the words they
 * are compared with. They carry little topic: the local embedder leaves them out of its features and
 * the answer composer out of a question's terms. Negations (`not`, `pas`) are in: "refunds are
 * processed" and "refunds are not processed" are about the same subject, which is what a contradiction
 * finder wants to pair.
 */
const ENGLISH = `
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing don down during each either else ever few for from
further had has have having he her here hers herself him himself his how i if in into is it its itself
just let ll may me might more most must my myself neither no nor not now of off on once only or other
our ours ourselves out over own per re s same shall she should so some such t than that the their theirs
them themselves then there these they this those through to too under until up upon us very ve was we
were what when where which while who whom whose why will with would yet you your yours yourself
yourselves d m o y within`;

const FRENCH = `
a ai aie aient ainsi alors au aucun aucune aussi autre autres aux avaient avais avait avant avec avez
avions avoir avons ayant c ca car ce ceci cela celle celles celui ces cet cette ceux chaque chez comme
comment combien d dans de des donc dont du elle elles en encore entre es est et etaient etais etait etant
ete etes etre eu eux fut ici il ils j je l la le les leur leurs lors lui m ma mais me meme memes mes moi
mon n ne ni nos notre nous on ont or ou par parce pas peu peut plus pour pourquoi qu quand que quel
quelle quelles quels qui quoi s sa se sera seront ses si son sont sous suis sur t ta te tes toi ton tous
tout toute toutes tres tu un une unes uns vers vos votre vous y`;

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

export const ENGLISH_STOPWORDS = words(ENGLISH);
export const FRENCH_STOPWORDS = words(FRENCH);
/** Both languages: a document may mix them, and a word of one is rarely a topic word of the other. */
export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...FRENCH_STOPWORDS]);

/** The function words of one language ("car" is French for "because", and an English noun). */
export function stopwordsOf(language: 'en' | 'fr'): ReadonlySet<string> {
  return language === 'fr' ? FRENCH_STOPWORDS : ENGLISH_STOPWORDS;
}

/**
 * Words of business writing that carry little subject, in two tiers (English and French, folded): the
 * local embedder weighs them down (its IDF table) and the missing subjects' terms half-weigh them.
 */
export const VERY_GENERIC_WORDS = `
one two new use used using make made get see time well like way first many much good need needs
information following including include includes please example number part case also etc
un deux nouveau nouvelle utiliser utilise faire fait voir temps bien comme premier premiere beaucoup
bon bonne besoin information informations suivant suivants suivante exemple nombre partie cas etc`;

export const GENERIC_WORDS = `
able available based provide provided provides given give take taken set within according related
ensure order type types different important general specific process system data document documents
level service services using section page question questions answer answers people person year years
day days week month months
disponible selon fournir fourni fournit donne donner prendre pris ensemble assurer ordre type types
different differents importante important general generale specifique processus systeme donnees
document documents niveau service services section page question questions reponse reponses personne
personnes annee annees an ans jour jours semaine mois`;
