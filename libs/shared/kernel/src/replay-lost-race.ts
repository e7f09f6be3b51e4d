import { DomainError } from './domain-error';

/** Attempts in all of an edit that keeps losing races to the service's own changes. */
const ATTEMPTS = 3;

/**
 * An edit of one versioned record as it is now, played again when it loses a race to the service's own work (an
 * analysis, a scan). `build` makes the edit from the record just read (null: nothing to do); `apply` writes it and
 * rejects with a DomainError of code `lostRaceCode` (a 409) when the record's version moved meanwhile. On such a lost
 * race the record is read anew: if `byPerson(latest, previous, first)` (the record read anew, the one the lost edit was
 * built from, the one read first) says a person made the conflicting change, the 409 stands (no silent overwrite);
 * otherwise the edit is built again from the record read anew and applied, at most three attempts in all.
 */
export async function replayLostRace<T, E>(
  read: () => Promise<T>,
  build: (record: T) => E | null | Promise<E | null>,
  apply: (edit: E, record: T) => Promise<void>,
  byPerson: (latest: T, previous: T, first: T) => boolean,
  lostRaceCode: string,
): Promise<void> {
  const first = await read();
  for (let attempt = 1, record = first; ; attempt++) {
    const edit = await build(record);
    if (!edit) return;
    try {
      await apply(edit, record);
      return;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === lostRaceCode) || attempt >= ATTEMPTS) throw error;
      const previous = record;
      record = await read();
      if (byPerson(record, previous, first)) throw error;
    }
  }
}
