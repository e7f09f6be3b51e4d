import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { IsPrefixedId, StrictBodyPipe, validateInput } from './validation';

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
