import { Logger } from '@nestjs/common';
import type { StructuredCall, StructuredResult } from '@svc/kernel';

/**
 * A small capability for the transports' tests: read a delay out of a policy text. Its schema has the
 * constraints real capabilities use (required fields, no extra ones, a number range, an enum).
 */
export const DELAY_OUTPUT = {
  name: 'submit_delay',
  description: 'Submits the delay the text states.',
  schema: {
    type: 'object',
    properties: {
      days: { type: 'integer', minimum: 0 },
      unit: { type: 'string', enum: ['days', 'weeks'] },
      quote: { type: 'string' },
    },
    required: ['days', 'unit', 'quote'],
    additionalProperties: false,
  },
};

export const DELAY_SYSTEM = 'You read company policies. Report the delay the user text states, by calling submit_delay exactly once.';

export function delayCall(text = 'Refunds are processed within 30 days of the request.'): StructuredCall {
  return { system: DELAY_SYSTEM, messages: [{ role: 'user', content: text }], output: DELAY_OUTPUT };
}

export interface Delay {
  days: number;
  unit: 'days' | 'weeks';
  quote: string;
}

/** What a model that reads well answers to `delayCall(text)`: the first "<n> days" of the text. */
export function readDelay(text: string): Delay {
  const match = /(\d+) days/.exec(text);
  return { days: match ? Number(match[1]) : 0, unit: 'days', quote: match ? match[0] : '' };
}

/** The output of a result, or a failed test when the model declined. */
export function outputOf(result: StructuredResult<Delay>): Delay {
  if (result.kind !== 'output') throw new Error(`expected an output, got ${result.kind}`);
  return result.output;
}

interface ModelServer {
  start(): Promise<string>;
  stop(): Promise<void>;
  reset(): void;
  respond: (body: never, userText: string) => unknown;
}

/**
 * Jest hooks for a transport's spec: the model server runs for the file, answers like a model that
 * reads well (`readDelay`), is reset before each test; the adapters' accounting lines are muted.
 * Returns the server's base URL (once started).
 */
export function serveDelays(server: ModelServer): () => string {
  let baseUrl = '';
  beforeAll(async () => {
    Logger.overrideLogger(false);
    baseUrl = await server.start();
  });
  afterAll(async () => {
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']);
    await server.stop();
  });
  beforeEach(() => {
    server.reset();
    server.respond = (_body: never, text: string) => readDelay(text);
  });
  return () => baseUrl;
}
