/**
 * Plain-language messages for the structural checks zod makes on every request (types, unknown fields,
 * ranges). The SPEC's own rule messages come from validation.ts and take precedence: they are set on the
 * schema itself. Imported for its side effect by common/api/index.ts, so both sides share it.
 */
import { z } from 'zod';

function fieldName(path: readonly PropertyKey[] | undefined): string {
  const last = path?.filter((p) => typeof p === 'string').at(-1);
  return typeof last === 'string' ? last : 'The request';
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

z.config({
  customError: (issue) => {
    const field = fieldName(issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
      case 'invalid_type':
        if (issue.input === undefined) return `${field} is required.`;
        return `${field} must be ${article(String(issue.expected))} ${issue.expected}.`;
      case 'invalid_value':
        return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
      case 'too_small':
        if (issue.origin === 'string') return `${field} must not be empty.`;
        if (issue.origin === 'array') return `${field} must have at least ${issue.minimum} entries.`;
        return issue.inclusive
          ? `${field} must be at least ${issue.minimum}.`
          : `${field} must be greater than ${issue.minimum}.`;
      case 'too_big':
        if (issue.origin === 'string') return `${field} must be at most ${issue.maximum} characters long.`;
        if (issue.origin === 'array') return `${field} must have at most ${issue.maximum} entries.`;
        return issue.inclusive
          ? `${field} must be at most ${issue.maximum}.`
          : `${field} must be less than ${issue.maximum}.`;
      case 'invalid_format':
        return `${field} is not a valid ${issue.format === 'datetime' ? 'date and time' : issue.format}.`;
      default:
        return undefined;
    }
  },
});
