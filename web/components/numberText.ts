/** What a number field accepts and gives back (NumberField, docs/decisions/0741). */

/** Text on its way to a number: digits, one decimal point, a leading minus. */
export const NUMBER_TYPING = /^-?\d*\.?\d*$/;

/** The text typed as the field gives it back: a number once it is one, else the text itself. */
export function readNumber(text: string): number | string {
  return /\d/.test(text) && !text.endsWith('.') && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** The text after a keystroke, or null when the keystroke is refused (a comma reads as a point). */
export function typedNumber(text: string): string | null {
  const next = text.replace(',', '.');
  return NUMBER_TYPING.test(next) ? next : null;
}

/** One step up or down from the text, keeping its decimals ('' counts from 0). */
export function stepNumber(text: string, by: number): string {
  const current = typeof readNumber(text) === 'number' ? Number(text) : 0;
  const decimals = text.split('.')[1]?.length ?? 0;
  return (current + by).toFixed(decimals);
}
