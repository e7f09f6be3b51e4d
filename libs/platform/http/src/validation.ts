import { Injectable, PipeTransform, Type } from '@nestjs/common';
import { DomainError, FieldError, ID_PREFIXES, IdPrefix, isId, PAGINATION, PlainTextOptions, plainTextProblem, prefixOf } from '@svc/kernel';
import { plainToInstance } from 'class-transformer';
import type { Request } from 'express';
import {
  IsInt,
  IsOptional,
  Max,
  Min,
  registerDecorator,
  validate,
  ValidationArguments,
  ValidationError,
  ValidationOptions,
  ValidateIf,
} from 'class-validator';

export const ID_CONSTRAINT = 'isPrefixedId';

export interface IdFieldOptions extends ValidationOptions {
  /** When a caller sends an id of another kind, the operation to use instead (wrong-namespace hint). */
  wrongNamespaceHint?: Partial<Record<IdPrefix, string>>;
}

/** Per body class (the constructor itself, not its name) and property. */
const idOptions = new WeakMap<object, Map<string, IdFieldOptions & { prefix: IdPrefix }>>();

/** A string id with the given prefix and a ULID body; checked before any lookup. */
export function IsPrefixedId(prefix: IdPrefix, options: IdFieldOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const byProperty = idOptions.get(target.constructor) ?? new Map();
    byProperty.set(String(propertyName), { ...options, prefix });
    idOptions.set(target.constructor, byProperty);
    registerDecorator({
      name: ID_CONSTRAINT,
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [prefix],
      options: { ...options, message: options.message ?? `$property must be an id starting with ${prefix}` },
      validator: {
        // With `each`, class-validator calls this once per array element.
        validate: (value: unknown) => isId(prefix, value),
      },
    });
  };
}

/**
 * A name or a query as people read it (ADR 0044): no control character (so no ANSI escape), no
 * bidirectional override; a query (`lineBreaks`) may hold tabs and line breaks. The message names
 * the first offending character. Non-strings are left to `@IsString`.
 */
export function IsPlainText(options: PlainTextOptions = {}, validationOptions: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isPlainText',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        ...validationOptions,
        message: (args: ValidationArguments) => {
          const problem = typeof args.value === 'string' ? plainTextProblem(args.value, options) : undefined;
          return `${args.property} must not contain control characters or bidirectional overrides${problem ? ` (it holds ${problem})` : ''}`;
        },
      },
      validator: { validate: (value: unknown) => typeof value !== 'string' || plainTextProblem(value, options) === undefined },
    });
  };
}

/** base64 characters (RFC 4648 §4) by char code: 1 for the alphabet, 2 for the pad `=`. */
const BASE64_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') table[c.charCodeAt(0)] = 1;
  table['='.charCodeAt(0)] = 2;
  return table;
})();

/**
 * Standard padded base64 (RFC 4648 §4: the A-Z a-z 0-9 + / alphabet, a length that is a multiple of
 * 4, at most two `=` and only at the end; no whitespace or line breaks). One pass over the characters,
 * no regular expression: a backtracking pattern over megabytes can exhaust the stack (issue 28).
 */
export function isStandardBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const end = text.length;
  let padding = 0;
  for (let i = 0; i < end; i += 1) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? BASE64_CHARS[code] : 0;
    if (kind === 0) return false;
    if (kind === 2) padding += 1;
    // The pad may only close the text: once one is seen, nothing but pads follows, two at most.
    else if (padding > 0) return false;
  }
  return padding <= 2;
}

/** A string in standard padded base64 (`isStandardBase64`), checked in linear time. */
export function IsBase64Text(validationOptions: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isBase64Text',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be standard base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4 characters; no spaces or line breaks)', ...validationOptions },
      validator: { validate: (value: unknown) => typeof value === 'string' && isStandardBase64(value) },
    });
  };
}

/** The validation context that marks a field `@IsOmittable()` (the JSON Schema lists it as optional). */
const OMITTABLE_CONTEXT = { omittable: true } as const;

/**
 * Like `@IsOptional()`, but only for a field left out: an explicit `null` is validated, and so refused
 * by the field's type rule, for fields where null means nothing (`content_base64: null` is neither a
 * file nor "no file").
 */
export function IsOmittable(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const property = String(propertyName);
    ValidateIf((object: Record<string, unknown>) => object[property] !== undefined, { context: OMITTABLE_CONTEXT })(target, property);
  };
}

/** `offset` and `limit` with the platform's bounds (BEHAVIOUR.md §1). */
export class PaginationInput {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(PAGINATION.maxOffset)
  offset?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PAGINATION.maxLimit)
  limit?: number;
}

/**
 * Strict body validation: the body must be a JSON object, unknown fields are refused by name, and a
 * wrong id prefix is reported with a hint. Every failure is one 400 listing each bad field.
 *
 * No input at all (`undefined`: an MCP call without arguments) reads as `{}`: operations without
 * fields work, the others name their missing fields. Input that is present must be an object: JSON
 * `null`, arrays and scalars are refused. (Over HTTP, `noBodyAsEmptyObject` turns a POST without a
 * body into `{}`, and StrictBodyPipe refuses a body no JSON parser read.)
 */
export async function validateInput<T extends object>(type: Type<T>, body: unknown): Promise<T> {
  const input = body === undefined ? {} : body;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw DomainError.invalid('REQUEST.BODY_NOT_OBJECT', 'The request body must be a JSON object.', {
      hint: 'Send a JSON object with Content-Type: application/json; operations without fields take {} (or no body).',
    });
  }
  const instance = plainToInstance(type, input, { enableImplicitConversion: false, exposeDefaultValues: true });
  // forbidUnknownValues off: a body class without fields (operations taking {}) has no metadata at all;
  // whitelist + forbidNonWhitelisted still refuse every field it does not declare.
  const failures = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (failures.length === 0) return instance;

  const errors = flatten(failures);
  const idFailure = failures.find((f) => f.constraints?.[ID_CONSTRAINT]);
  if (idFailure) {
    const options = idOptionsOf(type, idFailure.property);
    const value = idFailure.value;
    const given = typeof value === 'string' ? prefixOf(value) : undefined;
    if (options && given && given !== options.prefix) {
      const hint = options.wrongNamespaceHint?.[given] ?? `${idFailure.property} takes ids starting with ${options.prefix}; ${given} ids belong to other operations.`;
      throw DomainError.invalid(`${namespaceOf(options.prefix)}.WRONG_NAMESPACE`, `${idFailure.property} must start with ${options.prefix}, got a ${given} id.`, { errors, hint });
    }
  }
  const first = errors[0];
  throw DomainError.invalid('REQUEST.VALIDATION_FAILED', `Invalid request: ${first.message}.`, { errors });
}

/** Id options of a property, declared on the class or on one it extends. */
function idOptionsOf(type: Type<object>, property: string) {
  for (let t: unknown = type; typeof t === 'function' && t !== Object; t = Object.getPrototypeOf(t)) {
    const options = idOptions.get(t)?.get(property);
    if (options) return options;
  }
  return undefined;
}

function namespaceOf(prefix: IdPrefix): string {
  const entry = Object.entries(ID_PREFIXES).find(([, p]) => p === prefix);
  return (entry?.[0] ?? 'ID').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
}

/**
 * Constraints a field fails, most telling first: unknown or missing, then the wrong type, then the
 * rest (lengths, ranges, formats). `{"name": 12345}` says "name must be a string", not its length rule.
 */
const FIRST_CONSTRAINTS = ['whitelistValidation', 'isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject'];

function rank(constraint: string): number {
  const index = FIRST_CONSTRAINTS.indexOf(constraint);
  return index === -1 ? FIRST_CONSTRAINTS.length : index;
}

function flatten(failures: ValidationError[], parent = ''): FieldError[] {
  return failures.flatMap((failure) => {
    const field = parent ? `${parent}.${failure.property}` : failure.property;
    const own = Object.entries(failure.constraints ?? {}).sort(([a], [b]) => rank(a) - rank(b)).map(([constraint, message]) => ({
      field,
      message: constraint === 'whitelistValidation' ? `${field} is not a known field` : message.replace(failure.property, field),
    }));
    return [...own, ...flatten(failure.children ?? [], field)];
  });
}

/**
 * Nest pipe for `@Body()`: the body class comes from the parameter's type. An unset body here means
 * one was sent that no JSON parser read (say `text/plain`, what `fetch` sends for a string without a
 * Content-Type): refused, never read as `{}`, which would turn "re-index this document" into "re-index
 * them all". (A POST without any body was already made `{}` by `noBodyAsEmptyObject`.)
 */
@Injectable()
export class StrictBodyPipe implements PipeTransform {
  async transform(value: unknown, metadata: { type: string; metatype?: Type<unknown> }): Promise<unknown> {
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return value;
    assertBodyWasRead(value);
    // The auth guard validated catalogued operations' bodies already (before reading the instance).
    const validated = typeof value === 'object' && value !== null ? validatedBodies.get(value) : undefined;
    if (validated instanceof metadata.metatype) return validated;
    return validateInput(metadata.metatype as Type<object>, value);
  }
}

/** A request body no JSON parser read (another Content-Type) is refused, never read as `{}`. */
export function assertBodyWasRead(body: unknown): void {
  if (body === undefined) {
    throw DomainError.invalid('REQUEST.BODY_NOT_JSON', 'The request body must be JSON.', { hint: 'Send it with Content-Type: application/json, or send no body at all for an operation without fields.' });
  }
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/** 415 when a request carries a body whose Content-Type is not JSON (a body-less POST is fine). */
export function assertJsonBody(request: Request): void {
  const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (!hasBody) return;
  if (request.is(JSON_TYPES)) {
    // body-parser decodes any utf-* charset; JSON is UTF-8 (RFC 8259), and so is everything stored.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return;
    throw new DomainError('unsupported_media_type', 'REQUEST.UNSUPPORTED_ENCODING', 'The request body encoding is not supported: send UTF-8 JSON.', {
      hint: 'Send the body as UTF-8 with Content-Type: application/json (a charset parameter, if any, must be utf-8).',
    });
  }
  throw new DomainError('unsupported_media_type', 'REQUEST.UNSUPPORTED_MEDIA_TYPE', `Operations read a JSON body; this one was sent as ${printableType(request.headers['content-type'])}.`, {
    hint: 'Send the body as UTF-8 JSON with Content-Type: application/json, or send no body for an operation without fields.',
  });
}

function printableType(header: string | undefined): string {
  if (!header) return 'a body without Content-Type';
  const type = header.split(';')[0].trim().slice(0, 100);
  return /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'an unreadable Content-Type';
}

/** Raw request bodies already validated in this request, with their validated input (see StrictBodyPipe). */
const validatedBodies = new WeakMap<object, object>();

export function rememberValidatedBody(raw: unknown, input: object): void {
  if (typeof raw === 'object' && raw !== null) validatedBodies.set(raw, input);
}

/** True when the request carries no body (no Transfer-Encoding, and no Content-Length or 0). */
function hasNoBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/**
 * Express middleware, after the body parsers: a request without any body gets `{}` as its body, so
 * the spec's "no body" operations work whatever the client sends for an empty POST.
 */
export function noBodyAsEmptyObject(req: { body?: unknown; headers: Record<string, string | string[] | undefined> }, _res: unknown, next: () => void): void {
  if (req.body === undefined && hasNoBody(req.headers)) req.body = {};
  next();
}
