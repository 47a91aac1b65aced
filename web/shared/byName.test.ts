import { describe, expect, it } from 'vitest';
import { byName } from './byName.ts';

describe('byName', () => {
  it('orders numbers as numbers, and ignores case and accents', () => {
    const names = ['Line 10', 'line 2', 'Été', 'Line 1', 'ete 2', 'Zone B', 'zone a'];
    expect(
      names
        .map((name) => ({ name }))
        .sort(byName)
        .map(({ name }) => name),
    ).toEqual(['Été', 'ete 2', 'Line 1', 'line 2', 'Line 10', 'zone a', 'Zone B']);
  });

  it('orders as localeCompare does with the same options', () => {
    const names = ['B-12', 'b-2', 'A 1', 'a 01', 'Ä 3', 'x', 'X10', 'x9', '10', '9'];
    const expected = [...names].sort((a, b) =>
      a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }),
    );
    expect(
      names
        .map((name) => ({ name }))
        .sort(byName)
        .map(({ name }) => name),
    ).toEqual(expected);
  });
});
