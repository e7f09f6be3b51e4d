import { foldedWords } from './fold';
import type { Language } from './language';
import { stem } from './stem';

/**
 * Words that company documents use for one another (ANALYSIS.md §2.3 and §4.2: "the same fact in other words"):
 * general workplace, customer-service and policy vocabulary, English and French, one set per meaning. Written
 * from the language, not from any corpus: an asker writes "late" where the terms say "overdue", a French page says
 * "préavis" where the English one says "notice". Deliberately narrow: each set holds words a reader would swap
 * in a policy without changing what it says; words with several common meanings ("take", "claim", "leave", "store")
 * are left out. `general > specific ...` relates the general word to each specific one, not the specific ones to each
 * other: "alcohol" answers for "wine", "wine" does not for "beer".
 */
const SYNONYM_SETS: readonly string[] = [
  // Time and deadlines.
  'late overdue delayed belated tardy retard retardataire',
  'deadline cutoff echeance',
  'weekly hebdomadaire',
  'quarterly trimestriel trimestrielle trimestre',
  'annual annually yearly annuel annuelle',
  'monthly mensuel mensuelle',
  'fortnight fortnightly quinzaine',
  'begin start commence commencement debut commencer',
  'finish end terminate termination fin terminer',
  'expire expiry expiration lapse lapsed',
  // Permission and obligation.
  'allowed permitted authorised authorized allow permit authorise authorize entitled autorise autorisee permis',
  'forbidden prohibited banned interdit interdite proscrit',
  'mandatory compulsory required obligatory obligatoire requis',
  'optional voluntary facultatif facultative',
  // People and roles.
  'employee employees staff worker workers personnel colleague colleagues salarie salaries employe employes collaborateur collaborateurs',
  'manager supervisor superviseur responsable encadrant',
  'customer customers client clients buyer purchaser acheteur',
  'supplier suppliers vendor vendors provider fournisseur fournisseurs prestataire',
  'visitor visitors guest guests visiteur visiteurs invite invites',
  'contractor contractors subcontractor',
  'child children kid kids enfant enfants',
  'student students pupil etudiant etudiants eleve',
  'elderly senior seniors pensioner',
  // Employment.
  'resign resignation quit demission demissionner',
  'notice preavis',
  'probation probationary essai',
  'holiday holidays vacation vacations conge conges',
  'sick sickness illness ill maladie malade',
  'salary salaries wage wages remuneration salaire salaires',
  'bonus bonuses prime primes',
  'pension pensions retirement retraite',
  'training course courses formation formations',
  'remote telework teleworking homeworking teletravail',
  'contract contracts agreement contrat contrats',
  'appraisal appraisals evaluation',
  // Money.
  'refund refunds reimburse reimbursement reimbursed repay repayment rembourser remboursement rembourse',
  'fee fees charge charges surcharge tarif frais',
  'price prices cost costs tarif prix cout',
  'expense expenses expenditure spending depense depenses frais',
  'invoice invoices bill bills facture factures',
  'receipt receipts voucher justificatif justificatifs recu',
  'payment payments paiement paiements reglement',
  'discount discounts reduction reductions rebate concession remise remises rabais',
  'deposit deposits caution acompte',
  'cap ceiling limit maximum plafond',
  'free complimentary gratuit gratuite gratuitement',
  'interest interets',
  'allowance allowances indemnite indemnites',
  'budget budgets enveloppe',
  // Purchasing and approval.
  'purchase purchases purchased buy buying bought procurement purchasing achat achats acheter',
  'order orders commande commandes',
  'approve approval approved authorisation authorization validate validation approuver approbation valider',
  'quote quotation quotations estimate devis',
  // Goods, delivery, returns.
  'deliver delivery deliveries delivered livraison livraisons livrer livre',
  'ship shipping shipped dispatch dispatched despatch despatched expedition expedier expedie',
  'parcel parcels package packages consignment consignments shipment shipments colis envoi',
  'damage damaged broken defective faulty defect endommage abime defectueux casse',
  'return returns returned retour retours retourner',
  'exchange exchanges swap echange echanges',
  'warranty warranties guarantee guarantees garantie garanties',
  'repair repairs mend reparation reparations reparer',
  'cancel cancellation cancelled canceled annulation annuler annule',
  'booking bookings reservation reservations book reserve reserver',
  'stock inventory stocks',
  'warehouse depot entrepot',
  // Complaints and service.
  'complaint complaints grievance reclamation reclamations plainte plaintes',
  'acknowledge acknowledgement acknowledgment accuse',
  'reply replies respond response responses answer answers reponse reponses repondre',
  'phone telephone call calls hotline telephoner appel',
  'email emails courriel courriels',
  'website online internet web',
  // Safety and incidents.
  'report notify notification declare signal signaler declarer notifier',
  'incident incidents accident accidents',
  'injury injuries injured hurt blessure blessures blesse',
  'emergency emergencies urgent urgence urgences',
  'fire incendie',
  'helmet casque',
  'vest gilet',
  // IT and data.
  'password passwords passphrase passcode',
  'lock locked lockout block blocked suspend suspended verrouille verrouiller bloque bloquer',
  'attempt attempts try tries tentative tentatives',
  'wrong incorrect failed invalid erroneous errone incorrecte',
  'laptop laptops computer computers pc ordinateur ordinateurs portable',
  'backup backups sauvegarde sauvegardes',
  'keep kept retain retained retention conserve conserver conservation',
  'delete deleted erase erased destroy destroyed dispose disposal supprimer supprime effacer detruire',
  'data information donnees',
  'access acces',
  'review reviewed check checked audit inspect inspection verify verification controle revue',
  // Travel and hospitality.
  'travel trip trips journey journeys deplacement deplacements voyage voyages',
  'hotel hotels accommodation lodging hebergement',
  'meal meals repas > lunch dinner breakfast dejeuner diner',
  'lunch dejeuner',
  'dinner diner',
  'alcohol alcoholic alcool > wine beer spirits vin biere',
  'wine vin',
  'beer biere',
  'taxi taxis cab cabs',
  'flight flights airfare plane vol vols avion',
  'mileage kilometrage',
  'vehicle vehicles vehicule vehicules > van vans car cars lorry lorries truck trucks voiture voitures camionnette fourgon camion',
  'van vans camionnette fourgon',
  'car cars voiture voitures',
  'lorry lorries truck trucks camion camions',
  'private personal prive privee personnelle',
  'fare fares ticket tickets billet billets',
  // Places and opening.
  'office offices bureau bureaux',
  'open opening opens ouverture ouvert ouverte ouvrir',
  'closing closes closed fermeture ferme fermee fermer',
  'schedule timetable rota rotas horaire horaires planning',
  // Conduct.
  'smoke smoking smoked smoker cigarette cigarettes tobacco vaping fumer tabac',
  'pet pets animal animals animaux > dog dogs cat cats chien chiens chat chats',
];

interface Lexicon {
  /** stem → the indexes of the sets holding it */
  sets: Map<string, number[]>;
  /** set index → its stems */
  members: Set<string>[];
}

let lexicon: Lexicon | undefined;

function load(): Lexicon {
  if (lexicon) return lexicon;
  const sets = new Map<string, number[]>();
  const members: Set<string>[] = [];
  const add = (words: readonly string[]) => {
    const stems = new Set(words.flatMap(stemsOfEntry));
    const i = members.push(stems) - 1;
    for (const s of stems) sets.set(s, [...(sets.get(s) ?? []), i]);
  };
  for (const line of SYNONYM_SETS) {
    const [general, specific] = line.split(' > ');
    if (specific === undefined) add(general.split(' '));
    else for (const word of specific.split(' ')) add([...general.split(' '), word]);
  }
  lexicon = { sets, members };
  return lexicon;
}

/** An entry's stems as an English and as a French text would stem it; a hyphenated entry ("cut-off") is left out (texts split it). */
function stemsOfEntry(written: string): string[] {
  const words = foldedWords(written);
  return words.length === 1 ? (['en', 'fr'] as Language[]).map((language) => stem(words[0], language)) : [];
}

/** The stems of the words used for the same thing as `stemmed` (itself excluded); empty when it has none. */
export function synonymStems(stemmed: string): ReadonlySet<string> {
  const { sets, members } = load();
  const found = sets.get(stemmed);
  if (!found) return EMPTY;
  const out = new Set<string>();
  for (const i of found) for (const s of members[i]) if (s !== stemmed) out.add(s);
  return out;
}

/** Whether `stems` holds a word used for the same thing as `stemmed`. */
export function hasSynonym(stems: ReadonlySet<string>, stemmed: string): boolean {
  for (const s of synonymStems(stemmed)) if (stems.has(s)) return true;
  return false;
}

const EMPTY: ReadonlySet<string> = new Set();
