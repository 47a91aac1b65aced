/**
 * The zod schemas of SPEC §5's validation rules (common/fieldRules.ts), for request contracts. The rules
 * themselves are re-exported, so server code keeps one import.
 */
import { z } from 'zod';
import {
  EMAIL_MAX,
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
import {
  checkEmail,
  checkItemName,
  checkName,
  checkPassword,
  checkShortName,
  FORBIDDEN_NAME_CHARACTERS,
  type Rule,
} from './fieldRules.ts';

export * from './fieldRules.ts';

function fromRule(rule: Rule) {
  return z.string().superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/** Zod schemas of the same rules, for request contracts and forms. Names are trimmed before checking. */
// Each says its rule in words too: the API reference (GET /api/openapi.json) shows the description.
const noForbidden = `none of ${FORBIDDEN_NAME_CHARACTERS.join(' ')}`;
export const nameSchema = z
  .string()
  .trim()
  .pipe(fromRule(checkName))
  .meta({ description: `trimmed; ${NAME_MIN}-${NAME_MAX} characters; ${noForbidden}` });
export const itemNameSchema = z
  .string()
  .trim()
  .pipe(fromRule(checkItemName))
  .meta({ description: `trimmed; ${ITEM_NAME_MIN}-${ITEM_NAME_MAX} characters; ${noForbidden}` });
export const shortNameSchema = z
  .string()
  .trim()
  .pipe(fromRule(checkShortName))
  .meta({ description: `trimmed; ${SHORT_NAME_MIN}-${SHORT_NAME_MAX} characters; ${noForbidden}` });
export const emailSchema = z
  .string()
  .trim()
  .pipe(fromRule(checkEmail))
  .meta({ description: `an email address of ${EMAIL_MIN}-${EMAIL_MAX} characters` });
export const passwordSchema = fromRule(checkPassword).meta({
  description: `${PASSWORD_MIN}-${PASSWORD_MAX} characters`,
});
