import { ClaimContradiction, Claim, findContradictions, FindContradictionsOptions } from '@svc/text';

/**
 * The rule-based judge's search (ANALYSIS.md §4 steps 2-3): the contradictions among claims, as
 * `findContradictions` of @svc/text finds them. Pure CPU work without a pause, about 1 s per 1,000 claims:
 * a repository of 1,000 documents holds some 10,000. Run on the thread that serves requests (the embedded
 * mode's single process), it holds every request for as long; an adapter may run it elsewhere.
 */
export abstract class ContradictionFinder {
  abstract find(claims: readonly Claim[], options: FindContradictionsOptions): Promise<ClaimContradiction[]>;
}

/** On the caller's thread: tests, tools, and judgements small enough not to be felt. */
export class InlineContradictionFinder extends ContradictionFinder {
  async find(claims: readonly Claim[], options: FindContradictionsOptions): Promise<ClaimContradiction[]> {
    return findContradictions(claims, options);
  }
}
