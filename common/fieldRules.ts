/**
 * SPEC §5 validation rules, written once with their exact messages, as plain functions: the browser's
 * forms use them as they are, and the server's request schemas (common/validation.ts) are made from them, so
 * a rule can never say one thing in a form and another on the wire. No zod here: the browser loads this file.
 */
import {
  EMAIL_MAX,
  FEEDBACK_MAX,
  EMAIL_MIN,
  ITEM_NAME_MAX,
  ITEM_NAME_MIN,
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SHORT_NAME_MAX,
  SHORT_NAME_MIN,
} from './constants.ts';

export const messages = {
  nameTooShort: `Name must be at least ${NAME_MIN} characters long.`,
  nameTooLong: `Name cannot be longer that ${NAME_MAX} characters.`,
  itemNameLength: `Name must be between ${ITEM_NAME_MIN} and ${ITEM_NAME_MAX} characters long.`,
  shortNameLength: `Name must be between ${SHORT_NAME_MIN} and ${SHORT_NAME_MAX} characters long.`,
  nameInvalidCharacters: (found: string) => `Name contains invalid characters: ${found}`,
  nameExists: 'The name already exists.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters long.`,
  passwordTooLong: `Password cannot be longer than ${PASSWORD_MAX} characters.`,
  emailTooLong: 'Email address is too long.',
  emailInvalid: 'Invalid email address.',
  feedbackLength: `Feedback must be between 1 and ${FEEDBACK_MAX} characters long.`,
  passwordsDoNotMatch: 'Passwords do not match',
  emailRequired: 'Email is required.',
  passwordRequired: 'Password is required.',
  boardCardLimit: (max: number) => `The board can only have ${max} cards.`,
  pickerCardLimit: (max: number) => `You may only assign up to ${max} cards to a board.`,
} as const;

/** The characters SPEC §5 forbids in names, in the order it lists them. */
export const FORBIDDEN_NAME_CHARACTERS = [
  '!',
  '*',
  "'",
  '(',
  ')',
  ';',
  ':',
  '@',
  '&',
  '=',
  '+',
  '$',
  ',',
  '/',
  '?',
  '%',
  '#',
  '[',
  ']',
  '<',
  '>',
  '"',
  '`',
  '{',
  '}',
  '|',
  '^',
] as const;

/** The forbidden characters found in `name`, each once, in the order they first appear. */
export function forbiddenCharactersIn(name: string): string[] {
  const found: string[] = [];
  for (const ch of name) {
    if ((FORBIDDEN_NAME_CHARACTERS as readonly string[]).includes(ch) && !found.includes(ch)) found.push(ch);
  }
  return found;
}

/** Characters are counted as the user sees them (code points), not UTF-16 units. */
function length(value: string): number {
  return [...value].length;
}

export type Rule = (value: string) => string | null;

const invalidCharacters: Rule = (value) => {
  const found = forbiddenCharactersIn(value);
  return found.length ? messages.nameInvalidCharacters(found.join(' ')) : null;
};

/** General names (organisations): 5-50 characters, no forbidden characters. */
export const checkName: Rule = (value) => {
  if (length(value) < NAME_MIN) return messages.nameTooShort;
  if (length(value) > NAME_MAX) return messages.nameTooLong;
  return invalidCharacters(value);
};

/** Card and board names: 1-100 characters, no forbidden characters. */
export const checkItemName: Rule = (value) => {
  if (length(value) < ITEM_NAME_MIN || length(value) > ITEM_NAME_MAX) return messages.itemNameLength;
  return invalidCharacters(value);
};

/** Short names (dashboards): 1-30 characters, no forbidden characters. */
export const checkShortName: Rule = (value) => {
  if (length(value) < SHORT_NAME_MIN || length(value) > SHORT_NAME_MAX) return messages.shortNameLength;
  return invalidCharacters(value);
};

// A practical shape: one @, a non-empty local part, a dotted domain, no spaces or angle brackets.
const EMAIL_SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

export const checkEmail: Rule = (value) => {
  if (length(value) > EMAIL_MAX) return messages.emailTooLong;
  if (length(value) < EMAIL_MIN || !EMAIL_SHAPE.test(value)) return messages.emailInvalid;
  return null;
};

export const checkPassword: Rule = (value) => {
  if (length(value) < PASSWORD_MIN) return messages.passwordTooShort;
  if (length(value) > PASSWORD_MAX) return messages.passwordTooLong;
  return null;
};

/** Feedback: 1-5,000 characters once trimmed (counted as zod counts them: UTF-16 units). */
export const checkFeedback: Rule = (value) => {
  const length = value.trim().length;
  return length < 1 || length > FEEDBACK_MAX ? messages.feedbackLength : null;
};

export function checkPasswordsMatch(password: string, again: string): string | null {
  return password === again ? null : messages.passwordsDoNotMatch;
}

/** Names are compared without regard to case (and Unicode compatibility forms), within an organisation. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** Case-insensitive containment, the rule of every filter and search box (SPEC §5). */
export function nameContains(name: string, query: string): boolean {
  return nameKey(name).includes(nameKey(query.trim()));
}

/** Adapts a rule to a Mantine form validator (returns the message or null). */
export function formRule(rule: Rule) {
  return (value: string) => rule(value.trim());
}
