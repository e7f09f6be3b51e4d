/**
 * One stored record with its version column, for the tests of edits that race other writers. `update(key, changes)`
 * is a repository's versioned update: it first applies the next change queued in `meanwhile` (another writer's,
 * between the edit's read and its write, bumping the version), then writes `changes` only if `key.version` is still
 * the stored one (true, the version bumped) and else writes nothing (false). `read` gives a copy of the stored record.
 */
export class VersionedRow<T extends { version: number }> {
  readonly meanwhile: (Partial<T> | ((row: T) => Partial<T>))[] = [];

  constructor(private stored: T) {}

  /** The record as stored now. */
  row(): T {
    return this.stored;
  }

  readonly read = async (): Promise<T> => ({ ...this.stored });

  readonly update = async (key: { version: number }, changes: Partial<T>): Promise<boolean> => {
    const other = this.meanwhile.shift();
    if (other) this.stored = { ...this.stored, ...(typeof other === 'function' ? other(this.stored) : other), version: this.stored.version + 1 };
    if (key.version !== this.stored.version) return false;
    this.stored = { ...this.stored, ...changes, version: this.stored.version + 1 };
    return true;
  };
}
