import { ApiError, messageOf } from './api.ts';
import type { CallDef } from '../../common/api/define.ts';

/**
 * Puts a failed call's message where it belongs: on the field the server named (errField), else returns it
 * for the form's general error line.
 */
export function applyServerError(
  error: unknown,
  call: CallDef,
  setFieldError: (field: string, message: string) => void,
  fields: Record<string, string> = {},
): string | null {
  const message = messageOf(error, call);
  if (error instanceof ApiError && error.errField) {
    setFieldError(fields[error.errField] ?? error.errField, message);
    return null;
  }
  return message;
}
