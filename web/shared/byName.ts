/**
 * Names in the order people read them: 'Line 2' before 'Line 10', case and accents aside. One collator for
 * every comparison: `localeCompare` with options makes a collator on each call (decision 0773: 8 ms of the
 * board view's start at 4x CPU, sorting its ten cards).
 */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export const byName = (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);
