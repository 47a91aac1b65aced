/**
 * Text the API takes never carries a NUL character (U+0000): PostgreSQL cannot store one in text, SQLite
 * would, and no form can type one. Every call's request refuses it (defineCall), naming the field.
 */
import type { z } from 'zod';

export const nulMessage = (field: string) => `${field} must not contain a NUL character.`;

/** The path of the first string (or object key) holding a NUL, or null. */
export function findNul(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      const found = findNul(entry, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const found = findNul(entry, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** The schema, refusing a NUL anywhere in what it accepted (same type, so request types are unchanged). */
export function refusingNul<S extends z.ZodType>(schema: S): S {
  return schema.superRefine((value, ctx) => {
    const path = findNul(value);
    if (!path) return;
    const field = path.filter((p) => typeof p === 'string').at(-1);
    ctx.addIssue({
      code: 'custom',
      path,
      message: nulMessage(typeof field === 'string' ? field : 'The request'),
    });
  }) as S;
}
