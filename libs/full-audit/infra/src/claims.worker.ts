// The thread ClaimsThread runs the scan's CPU work on: one request at a time, each answered with its id.
// Requests arrive by structured clone (Maps, Sets and arrays of numbers included).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { claimsOfDocument, ScannedDocument } from '@svc/full-audit-core';
import { Claim, findContradictions, FindContradictionsOptions } from '@svc/text';

/** What the thread does: the claims of documents, or the contradictions among claims. */
export type ClaimsWork = { kind: 'claims'; documents: readonly ScannedDocument[] } | { kind: 'contradictions'; claims: readonly Claim[]; options: FindContradictionsOptions };

/** A request, or the first slices of a large one's claims (`part`: kept until the request that ends with them). */
export type ClaimsRequest = (ClaimsWork | { kind: 'part'; claims: readonly Claim[] }) & { id: number };

/**
 * Background work: when other work takes the cores, the threads that answer requests go first. On Linux a nice
 * value belongs to a thread (elsewhere it would lower the whole process: left alone there).
 */
const BACKGROUND_NICE = 10;
if (process.platform === 'linux') {
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // not permitted here: the thread keeps the process's priority
  }
}

const parts = new Map<number, Claim[]>();

function run(request: ClaimsWork & { id: number }): unknown {
  if (request.kind === 'claims') return request.documents.map(claimsOfDocument);
  const before = parts.get(request.id) ?? [];
  parts.delete(request.id);
  return findContradictions(before.length > 0 ? [...before, ...request.claims] : request.claims, request.options);
}

parentPort?.on('message', (request: ClaimsRequest) => {
  if (request.kind === 'part') {
    const kept = parts.get(request.id);
    if (kept) kept.push(...request.claims);
    else parts.set(request.id, [...request.claims]);
    return;
  }
  try {
    parentPort?.postMessage({ id: request.id, result: run(request) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
