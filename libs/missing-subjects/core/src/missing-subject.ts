import type { Page, PageRequest } from '@svc/kernel';
import type { SubjectProfile, SubjectTerm, TermStatistics, TermVector } from '@svc/text';

/**
 * Missing subjects (`ms_`, BEHAVIOUR.md §7): what people ask that the repository does not answer,
 * grouped by meaning. States PENDING (initial), MANAGED (a covering document was ingested), IGNORED
 * (the gap is intentional); set-state moves freely between them.
 */
export const MISSING_SUBJECT_STATES = ['PENDING', 'MANAGED', 'IGNORED'] as const;
export type MissingSubjectState = (typeof MISSING_SUBJECT_STATES)[number];

/** Where an unanswered question comes from. */
export type SubjectQuestionSource = 'mandatory_question' | 'companion_question' | 'search';

/** The source reference of every question that comes from the instance's searches. */
export const SEARCHES_SOURCE = 'searches';

export interface MissingSubject {
  id: string;
  instanceId: string;
  organizationId: string;
  /** For people, from the questions' own words ("Parental leave"). */
  label: string;
  state: MissingSubjectState;
  profile: SubjectProfile;
  questionCount: number;
  /** The cached companion-document draft, and the answers it was drafted from (their hash). */
  proposition: string | null;
  propositionKey: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** A question of a subject (`msq_`): its text, where it comes from, and the expert's answer. */
export interface MissingSubjectQuestion {
  id: string;
  instanceId: string;
  subjectId: string;
  text: string;
  source: SubjectQuestionSource;
  /** The mandatory question (`mq_`) it comes from, or `searches`. */
  sourceRef: string;
  terms: SubjectTerm[];
  /** The vector it joined its subject with (what leaving subtracts). */
  vector: TermVector;
  answer: string | null;
  answeredAt: Date | null;
  createdAt: Date;
}

export type SubjectChanges = Partial<Pick<MissingSubject, 'label' | 'state' | 'profile' | 'questionCount' | 'proposition' | 'propositionKey' | 'updatedAt'>>;

export abstract class MissingSubjectRepository {
  /** Serialises the subject writes of one instance until the current transaction ends. */
  abstract lock(instanceId: string): Promise<void>;
  abstract insert(subject: MissingSubject): Promise<void>;
  abstract get(instanceId: string, id: string): Promise<MissingSubject | null>;
  /** Newest first, ties by id. */
  abstract list(instanceId: string, page: PageRequest): Promise<Page<MissingSubject>>;
  abstract all(instanceId: string): Promise<MissingSubject[]>;
  abstract update(key: { id: string; version: number }, changes: SubjectChanges): Promise<boolean>;
  abstract remove(id: string): Promise<void>;
  /** The instance's term statistics (the inverse document frequencies of its questions). */
  abstract statistics(instanceId: string): Promise<TermStatistics>;
  abstract saveStatistics(instanceId: string, statistics: TermStatistics): Promise<void>;
}

export abstract class SubjectQuestionRepository {
  abstract insert(question: MissingSubjectQuestion): Promise<void>;
  abstract get(instanceId: string, id: string): Promise<MissingSubjectQuestion | null>;
  /** Oldest first. */
  abstract ofSubject(instanceId: string, subjectId: string): Promise<MissingSubjectQuestion[]>;
  abstract fromSource(instanceId: string, sourceRef: string): Promise<MissingSubjectQuestion[]>;
  abstract remove(id: string): Promise<void>;
  abstract setAnswer(id: string, answer: string, at: Date): Promise<void>;
}

/** A search of the instance API, as the missing subjects read the search log (the repository's, through a port). */
export interface LoggedSearch {
  query: string;
  userId: string;
  at: Date;
  answered: boolean;
}

export abstract class SearchDemand {
  /** The newest `limit` searches of the instance since `from`, oldest first. */
  abstract recent(instanceId: string, from: Date, limit: number): Promise<LoggedSearch[]>;
}
