import { DomainError } from './domain-error';
import { replayLostRace } from './replay-lost-race';
import { VersionedRow } from './testing';

interface Item {
  id: string;
  state: string;
  answer: string | null;
  version: number;
}

const LOST_RACE = 'ITEM.CONCURRENT_EDIT';

/** One stored item whose versioned write rejects with the lost-race 409, as a use case's `apply` does. */
function item(initial: Partial<Item> = {}) {
  const rows = new VersionedRow<Item>({ id: 'it_1', state: 'OPEN', answer: null, version: 1, ...initial });
  const applied: Item[] = [];
  const apply = async (changes: Partial<Item>, record: Item) => {
    applied.push(record);
    if (!(await rows.update(record, changes))) throw DomainError.conflict(LOST_RACE, `Item ${record.id} was changed meanwhile; nothing was saved.`);
  };
  return { rows, applied, apply };
}

/** A person answers or closes; the service only moves the state between OPEN and BUSY. */
const byPerson = (latest: Item, _previous: Item, first: Item) => latest.answer !== first.answer || latest.state === 'CLOSED';
const close = () => ({ state: 'CLOSED' });

describe('replayLostRace', () => {
  it('applies the edit once when nothing changed the record meanwhile', async () => {
    const s = item();
    await replayLostRace(s.rows.read, close, s.apply, byPerson, LOST_RACE);
    expect(s.rows.row()).toMatchObject({ state: 'CLOSED', version: 2 });
    expect(s.applied).toHaveLength(1);
  });

  it('does nothing when the edit built from the record is null', async () => {
    const s = item();
    await replayLostRace(s.rows.read, () => null, s.apply, byPerson, LOST_RACE);
    expect(s.applied).toEqual([]);
    expect(s.rows.row().version).toBe(1);
  });

  it('builds the edit again from the record read anew when the service changed it meanwhile, and applies it', async () => {
    const s = item();
    s.rows.meanwhile.push({ state: 'BUSY' });
    const built: string[] = [];
    await replayLostRace(s.rows.read, async (record) => (built.push(record.state), { answer: `seen ${record.state}` }), s.apply, byPerson, LOST_RACE);
    expect(built).toEqual(['OPEN', 'BUSY']);
    expect(s.rows.row()).toMatchObject({ state: 'BUSY', answer: 'seen BUSY', version: 3 });
  });

  it('keeps the 409 when a person made the conflicting change: nothing overwritten', async () => {
    const s = item();
    s.rows.meanwhile.push({ answer: '14 days' });
    const seen: [Item, Item, Item][] = [];
    const judged = (latest: Item, previous: Item, first: Item) => (seen.push([latest, previous, first]), byPerson(latest, previous, first));
    await expect(replayLostRace(s.rows.read, () => ({ answer: '30 days' }), s.apply, judged, LOST_RACE)).rejects.toMatchObject({ code: LOST_RACE, kind: 'conflict' });
    expect(s.rows.row()).toMatchObject({ answer: '14 days', version: 2 });
    expect(s.applied).toHaveLength(1);
    expect(seen).toEqual([[{ id: 'it_1', state: 'OPEN', answer: '14 days', version: 2 }, { id: 'it_1', state: 'OPEN', answer: null, version: 1 }, { id: 'it_1', state: 'OPEN', answer: null, version: 1 }]]);
  });

  it('passes the record the lost edit was built from as `previous`, and the first read as `first`', async () => {
    const s = item();
    s.rows.meanwhile.push({ state: 'BUSY' }, { state: 'OPEN' });
    const states: string[][] = [];
    const judged = (latest: Item, previous: Item, first: Item) => (states.push([latest.state, previous.state, first.state]), false);
    await replayLostRace(s.rows.read, close, s.apply, judged, LOST_RACE);
    expect(states).toEqual([
      ['BUSY', 'OPEN', 'OPEN'],
      ['OPEN', 'BUSY', 'OPEN'],
    ]);
    expect(s.rows.row()).toMatchObject({ state: 'CLOSED', version: 4 });
  });

  it('gives up with the 409 after three lost races', async () => {
    const s = item();
    s.rows.meanwhile.push({ state: 'BUSY' }, { state: 'OPEN' }, { state: 'BUSY' });
    await expect(replayLostRace(s.rows.read, close, s.apply, byPerson, LOST_RACE)).rejects.toMatchObject({ code: LOST_RACE });
    expect(s.applied).toHaveLength(3);
    expect(s.rows.row()).toMatchObject({ state: 'BUSY', version: 4 });
  });

  it('rethrows any other error at once, without reading the record again', async () => {
    const s = item();
    let reads = 0;
    const read = () => (reads++, s.rows.read());
    const other = DomainError.conflict('ITEM.OTHER', 'Another conflict.');
    await expect(replayLostRace(read, close, async () => Promise.reject(other), byPerson, LOST_RACE)).rejects.toBe(other);
    await expect(replayLostRace(read, close, async () => Promise.reject(new Error('boom')), byPerson, LOST_RACE)).rejects.toThrow('boom');
    expect(reads).toBe(2);
  });
});
