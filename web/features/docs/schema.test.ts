import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldsOf, typeText, type JsonSchema } from './schema.ts';

const schemaOf = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input' }) as JsonSchema;

describe('the API reference reads JSON Schema as rows of fields', () => {
  it('names types, nullability, enums and arrays as a reader says them', () => {
    expect(typeText(schemaOf(z.string()))).toBe('string');
    expect(typeText(schemaOf(z.number().int().nullable()))).toBe('integer or null');
    expect(typeText(schemaOf(z.enum(['Low', 'High'])))).toBe('"Low" | "High"');
    expect(typeText(schemaOf(z.array(z.boolean())))).toBe('array of boolean');
    expect(typeText(schemaOf(z.iso.datetime()))).toBe('date-time (ISO 8601)');
  });

  it('lists nested fields with dotted names, whether each is required, and its limits', () => {
    const rows = fieldsOf(
      schemaOf(
        z.strictObject({
          name: z.string().min(1).max(30),
          said: z.string().meta({ description: 'trimmed; no commas' }),
          evalID: z.number().int().positive(),
          note: z.string().max(500).optional(),
          results: z.array(z.object({ item_id: z.number().int(), pass: z.boolean().nullable() })).max(1000),
          owner: z.object({ email: z.email() }).nullable(),
        }),
      ),
    );
    expect(rows).toEqual([
      { name: 'name', type: 'string', required: true, rules: '1-30 characters' },
      { name: 'said', type: 'string', required: true, rules: 'trimmed; no commas' },
      { name: 'evalID', type: 'integer', required: true, rules: '> 0' },
      { name: 'note', type: 'string', required: false, rules: 'at most 500 characters' },
      {
        name: 'results',
        type: 'array of object',
        required: true,
        rules: 'at most 1000 entries',
      },
      { name: 'results[].item_id', type: 'integer', required: true, rules: '' },
      { name: 'results[].pass', type: 'boolean or null', required: true, rules: '' },
      { name: 'owner', type: 'object or null', required: true, rules: '' },
      { name: 'owner.email', type: 'string', required: true, rules: 'email' },
    ]);
  });
});
