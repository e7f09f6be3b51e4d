import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { jsonSchemaOf } from './json-schema';
import { IsBase64Text, IsOmittable, IsPlainText, isStandardBase64, IsPrefixedId, StrictBodyPipe, validateInput } from './validation';

class IdsInput {
  @IsArray()
  @ArrayMaxSize(3)
  @IsPrefixedId('kd_', { each: true })
  ids!: string[];
}

class OneId {
  @IsPrefixedId('qc_', { wrongNamespaceHint: { fc_: 'use audit_full_audit_conflict_get for fc_ ids' } })
  conflict_id!: string;
}

class ChildId extends OneId {}

describe('validateInput', () => {
  it('accepts arrays of well-formed ids and names the field of a bad element', async () => {
    await expect(validateInput(IdsInput, { ids: ['kd_01ARZ3NDEKTSV4RRFFQ69G5FAV'] })).resolves.toBeInstanceOf(IdsInput);
    await expect(validateInput(IdsInput, { ids: ['kd_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'kd_bad'] })).rejects.toMatchObject({ kind: 'invalid', errors: [{ field: 'ids' }] });
    await expect(validateInput(IdsInput, { ids: ['a', 'b', 'c', 'd'] })).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('answers an id of the other namespace with WRONG_NAMESPACE and the operation to use, also for inherited fields', async () => {
    for (const type of [OneId, ChildId]) {
      await expect(validateInput(type, { conflict_id: 'fc_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).rejects.toMatchObject({
        code: 'QUESTION_CONFLICT.WRONG_NAMESPACE',
        hint: 'use audit_full_audit_conflict_get for fc_ ids',
      });
    }
  });

  it('refuses unknown fields by name and non-object bodies', async () => {
    await expect(validateInput(OneId, { conflict_id: 'qc_01ARZ3NDEKTSV4RRFFQ69G5FAV', extra: 1 })).rejects.toMatchObject({ errors: [{ field: 'extra', message: 'extra is not a known field' }] });
    await expect(validateInput(OneId, [1, 2])).rejects.toMatchObject({ code: 'REQUEST.BODY_NOT_OBJECT' });
  });
});

class NoFields {}

describe('validateInput (operations without fields)', () => {
  it('accepts {} and refuses any field by name', async () => {
    await expect(validateInput(NoFields, {})).resolves.toBeInstanceOf(NoFields);
    await expect(validateInput(NoFields, { x: 1 })).rejects.toMatchObject({ errors: [{ field: 'x', message: 'x is not a known field' }] });
  });
});

describe('validateInput (no body)', () => {
  // Express 5 / body-parser 2 leave req.body undefined on a POST without a body (spec: "no body" operations).
  it('reads an absent body as {}: operations without fields work, the others name the missing field', async () => {
    await expect(validateInput(NoFields, undefined)).resolves.toBeInstanceOf(NoFields);
    await expect(validateInput(OneId, undefined)).rejects.toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', errors: [expect.objectContaining({ field: 'conflict_id' })] });
  });

  it('refuses, through the @Body() pipe, a body that no JSON parser read (an HTTP POST without a body arrives as {})', async () => {
    const pipe = new StrictBodyPipe();
    await expect(pipe.transform(undefined, { type: 'body', metatype: NoFields })).rejects.toMatchObject({ kind: 'invalid', code: 'REQUEST.BODY_NOT_JSON' });
    await expect(pipe.transform({}, { type: 'body', metatype: NoFields })).resolves.toBeInstanceOf(NoFields);
    await expect(pipe.transform({}, { type: 'body', metatype: OneId })).rejects.toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', errors: [expect.objectContaining({ field: 'conflict_id' })] });
  });

  it('still refuses a body that is present but not an object, JSON null included', async () => {
    for (const body of [null, [], 'text', 42, true]) {
      await expect(validateInput(NoFields, body)).rejects.toMatchObject({ code: 'REQUEST.BODY_NOT_OBJECT', kind: 'invalid' });
    }
  });
});

class NamedInput {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  count?: number;
}

describe('validateInput messages', () => {
  it('names the first real problem of a field: its type before its length or range', async () => {
    await expect(validateInput(NamedInput, { name: 12345 })).rejects.toMatchObject({ message: 'Invalid request: name must be a string.' });
    await expect(validateInput(NamedInput, { name: 'x', count: 'many' })).rejects.toMatchObject({ message: 'Invalid request: count must be an integer number.' });
    await expect(validateInput(NamedInput, { name: '' })).rejects.toMatchObject({ message: 'Invalid request: name must be longer than or equal to 1 characters.' });
  });
});

class UploadInput {
  @IsString()
  @IsPlainText()
  name!: string;

  @IsOptional()
  @IsString()
  @IsPlainText({ lineBreaks: true })
  query?: string;

  @IsOmittable()
  @IsString()
  @IsBase64Text()
  content_base64?: string;
}

describe('text and base64 fields', () => {
  it('refuses control characters, ANSI escapes and bidi overrides in a name, naming the field and the character', async () => {
    await expect(validateInput(UploadInput, { name: 'Été 2026 – 😀' })).resolves.toBeInstanceOf(UploadInput);
    for (const name of ['\u001b[31mred', 'two\nlines', 'gpj.\u202eexe', 'c1\u009b']) {
      await expect(validateInput(UploadInput, { name })).rejects.toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', errors: [{ field: 'name', message: expect.stringMatching(/^name must not contain control characters or bidirectional overrides \(it holds U\+/) }] });
    }
    await expect(validateInput(UploadInput, { name: 'x', query: 'How long\ndo refunds take?' })).resolves.toBeInstanceOf(UploadInput);
    await expect(validateInput(UploadInput, { name: 'x', query: 'refunds\u001b[2J' })).rejects.toMatchObject({ errors: [{ field: 'query' }] });
  });

  it('takes standard padded base64 only, and says null is no content (the field stays optional in the schema)', async () => {
    const valid = Buffer.from('any bytes \u0000\u00ff').toString('base64');
    await expect(validateInput(UploadInput, { name: 'x', content_base64: valid })).resolves.toBeInstanceOf(UploadInput);
    await expect(validateInput(UploadInput, { name: 'x' })).resolves.toBeInstanceOf(UploadInput);
    await expect(validateInput(UploadInput, { name: 'x', content_base64: null })).rejects.toMatchObject({ message: 'Invalid request: content_base64 must be a string.', errors: expect.arrayContaining([expect.objectContaining({ field: 'content_base64' })]) });
    for (const bad of [`${valid} `, `${valid.slice(0, 4)}\n${valid.slice(4)}`, 'QQ==QUJD', 'QQ=', 'QUJD-_8=', 'Q===', '€€€€']) {
      await expect(validateInput(UploadInput, { name: 'x', content_base64: bad })).rejects.toMatchObject({ errors: [{ field: 'content_base64', message: expect.stringContaining('must be standard base64') }] });
    }
    expect(jsonSchemaOf(UploadInput).required).toEqual(['name']);
  });

  it('checks 10 MiB of base64 in one linear pass, whatever the hostile variant', () => {
    const valid = Buffer.alloc(10 * 1024 * 1024, 0xa5).toString('base64');
    const variants = [
      `${valid.slice(0, -4)}AA!A`,
      valid.replace(/(.{76})/g, '$1\n').slice(0, valid.length),
      `${valid.slice(0, valid.length / 2)}=${valid.slice(valid.length / 2 + 1)}`,
      `${valid.slice(0, -1)}\u00e9`,
    ];
    const started = Date.now();
    expect(isStandardBase64(valid)).toBe(true);
    for (const variant of variants) expect(isStandardBase64(variant)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
