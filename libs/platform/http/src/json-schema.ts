import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  minItems?: number;
  pattern?: string;
  description?: string;
  format?: string;
  nullable?: boolean;
}

/**
 * The JSON Schema of a class-validator body class, read from its decorators. It is what OpenAPI
 * documents and what MCP tools advertise as `inputSchema`, so both always match REST validation.
 */
export function jsonSchemaOf(type: Type<object>): JsonSchema {
  const storage = getMetadataStorage();
  const metadata = storage.getTargetValidationMetadatas(type as unknown as Parameters<typeof storage.getTargetValidationMetadatas>[0], '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metadata) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    const names = new Set(rules.map((r) => r.name ?? r.type));
    const each = rules.some((r) => r.each);
    const item: JsonSchema = {};
    const schema: JsonSchema = each || names.has('isArray') ? { type: 'array', items: item } : item;
    for (const rule of rules) {
      const target = rule.each ? item : rule.name === 'arrayMaxSize' || rule.name === 'arrayMinSize' || rule.name === 'isArray' ? schema : item;
      const [c0] = rule.constraints ?? [];
      switch (rule.name ?? rule.type) {
        case 'isString': target.type = 'string'; break;
        case 'isInt': target.type = 'integer'; break;
        case 'isNumber': target.type = 'number'; break;
        case 'isBoolean': target.type = 'boolean'; break;
        case 'isObject': target.type = 'object'; break;
        case 'isIn': target.enum = c0 as unknown[]; break;
        case 'isEnum': target.enum = Object.values(c0 as object); break;
        case 'min': target.minimum = c0 as number; break;
        case 'max': target.maximum = c0 as number; break;
        case 'minLength': target.minLength = c0 as number; break;
        case 'maxLength': target.maxLength = c0 as number; break;
        case 'isNotEmpty': if (!target.minLength) target.minLength = 1; break;
        case 'arrayMaxSize': schema.maxItems = c0 as number; break;
        case 'arrayMinSize': schema.minItems = c0 as number; break;
        case 'isPrefixedId':
          Object.assign(rule.each ? item : target, { type: 'string', pattern: `^${c0}[0-9A-HJKMNP-TV-Z]{26}$` });
          break;
        case 'isDateString': case 'isISO8601': target.type = 'string'; target.format = 'date-time'; break;
        case 'isEmail': target.type = 'string'; target.format = 'email'; break;
      }
    }
    const optional = names.has('isOptional') || rules.some((r) => (r.context as { omittable?: boolean } | undefined)?.omittable === true);
    const nullable = rules.some((r) => r.name === 'isOptional' || r.name === 'allowNull');
    if (!optional) required.push(property);
    if (nullable && names.has('allowNull')) schema.nullable = true;
    properties[property] = schema;
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
