import { DomainError, FieldError } from '@svc/kernel';
import type { NextFunction, Request, Response } from 'express';

/** Deepest nesting a request body may have: far beyond any operation's shape, far below a validator's stack. */
export const MAX_BODY_DEPTH = 32;

/** Keys that would reach an object's prototype machinery in a validator or a transformer. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A UTF-16 surrogate without its other half: not text, and not storable as JSON in PostgreSQL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first problem of a parsed request body or query string that no operation can accept, whatever
 * its fields: nesting deeper than MAX_BODY_DEPTH, a NUL character or a lone surrogate in a string or
 * a key, a `__proto__` / `constructor` / `prototype` key. Walks iteratively, so the check itself never
 * overflows the stack it protects. `undefined` when the input is clean.
 */
export function inputProblem(input: unknown, root: string): FieldError | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: input, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { field: path || 'body', message: `${path || 'the body'} ${problem}` };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_BODY_DEPTH) return { field: path, message: `${path} nests deeper than ${MAX_BODY_DEPTH} levels (the limit of a request)` };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i];
      const keyPath = path ? `${path}.${printable(key)}` : printable(key);
      if (FORBIDDEN_KEYS.has(key)) return { field: keyPath, message: `property ${keyPath} should not exist` };
      const problem = textProblem(key);
      if (problem) return { field: keyPath, message: `the name of ${keyPath} ${problem}` };
      stack.push({ value: (value as Record<string, unknown>)[key], path: keyPath, depth: depth + 1 });
    }
  }
  return undefined;
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds a lone surrogate)';
  return undefined;
}

/** A key as it can be shown in a message: control characters and lone surrogates escaped. */
function printable(key: string): string {
  let shown = '';
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    shown += code < 0x20 || (code >= 0xd800 && code <= 0xdfff) ? `\\u${code.toString(16).padStart(4, '0')}` : key[i];
  }
  return shown;
}

/**
 * Express middleware, after the body parsers: refuses a body or a query string `inputProblem` finds
 * fault with, as a 400 naming the field, before any guard, validator or query sees it. One place for
 * every route of every app (operations, instance API, OAuth endpoints, `/mcp`).
 */
export function refuseUnsafeInput(req: Request, _res: Response, next: NextFunction): void {
  const problem = inputProblem(req.body, '') ?? inputProblem(req.query, 'query');
  if (!problem) return next();
  next(
    DomainError.invalid('REQUEST.VALIDATION_FAILED', `Invalid request: ${problem.message}.`, {
      errors: [problem],
    }),
  );
}
