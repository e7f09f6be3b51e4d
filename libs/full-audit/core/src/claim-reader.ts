import type { Claim } from '@svc/text';
import { claimsOfDocument } from './findings';
import type { ScannedDocument } from './full-audit.ports';

/** Let the event loop serve requests between two documents. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the claims of documents (`claimsOfDocument`, ANALYSIS.md §4 step 1): CPU work without a pause of tens to
 * hundreds of milliseconds per document (the value recognizers), longer on a language's first read (its models are
 * built then). Run on the thread that serves requests (the embedded mode's single process), each document holds
 * every request for as long; an adapter may run it elsewhere.
 */
export abstract class ClaimReader {
  /** The claims of each document, in the order given. */
  abstract read(documents: readonly ScannedDocument[]): Promise<Claim[][]>;
}

/** On the caller's thread, letting the event loop run between two documents: tests, tools. */
export class InlineClaimReader extends ClaimReader {
  async read(documents: readonly ScannedDocument[]): Promise<Claim[][]> {
    const claims: Claim[][] = [];
    for (const document of documents) {
      claims.push(claimsOfDocument(document));
      await yieldToLoop();
    }
    return claims;
  }
}
