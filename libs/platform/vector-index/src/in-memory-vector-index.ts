import { IndexedVector, VectorIndex, VectorMatch } from '@svc/kernel';
import { checkedQuery, checkedUpsert, checkKey, clampScore } from './vector-input';

interface Entry {
  instanceId: string;
  documentId: string;
  model: string;
  vector: number[];
  unit: number[] | null;
}

/**
 * The in-memory fake of VectorIndex, for unit tests: exact cosine search over a Map, with the same
 * checks, ordering and zero-vector rule as the PostgreSQL adapters (the contract suite runs against
 * all three). It joins no transaction: writes apply at once.
 */
export class InMemoryVectorIndex extends VectorIndex {
  readonly entries = new Map<string, Entry>();

  async upsert(instanceId: string, model: string, vectors: IndexedVector[]): Promise<void> {
    const { rows } = checkedUpsert(instanceId, model, vectors);
    for (const row of rows) this.entries.set(row.id, { instanceId, documentId: row.documentId, model, vector: row.vector, unit: unitOf(row.vector) });
  }

  async removeDocument(instanceId: string, documentId: string): Promise<void> {
    checkKey('instance id', instanceId);
    checkKey('document id', documentId);
    for (const [id, entry] of this.entries) {
      if (entry.instanceId === instanceId && entry.documentId === documentId) this.entries.delete(id);
    }
  }

  async removeNodes(instanceId: string, nodeIds: readonly string[]): Promise<void> {
    checkKey('instance id', instanceId);
    for (const id of nodeIds) checkKey('node id', id);
    for (const id of nodeIds) {
      if (this.entries.get(id)?.instanceId === instanceId) this.entries.delete(id);
    }
  }

  async vectorsOf(instanceId: string, model: string, documentIds: string[]): Promise<IndexedVector[]> {
    checkKey('instance id', instanceId);
    checkKey('model', model);
    const wanted = new Set(documentIds);
    return [...this.entries]
      .filter(([, e]) => e.instanceId === instanceId && e.model === model && wanted.has(e.documentId))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, e]) => ({ id, documentId: e.documentId, vector: [...e.vector] }));
  }

  async search(instanceId: string, model: string, vector: number[], limit: number): Promise<VectorMatch[]> {
    const query = checkedQuery(instanceId, model, vector, limit);
    if (!query) return [];
    const matches: VectorMatch[] = [];
    for (const [id, entry] of this.entries) {
      const unit = entry.unit;
      if (entry.instanceId !== instanceId || entry.model !== model || !unit || unit.length !== query.unit.length) continue;
      const score = unit.reduce((s, x, i) => s + x * query.unit[i], 0);
      matches.push({ id, documentId: entry.documentId, score: clampScore(score) });
    }
    return matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, query.limit);
  }
}

function unitOf(vector: number[]): number[] | null {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? null : vector.map((x) => x / norm);
}
