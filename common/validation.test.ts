import { describe, expect, it } from 'vitest';
import {
  checkEmail,
  checkItemName,
  checkName,
  checkPassword,
  checkPasswordsMatch,
  checkShortName,
  emailSchema,
  FORBIDDEN_NAME_CHARACTERS,
  forbiddenCharactersIn,
  itemNameSchema,
  nameContains,
  nameKey,
} from './validation.ts';
import { anonymousGridColumns } from './constants.ts';

const of = (n: number) => 'a'.repeat(n);

describe('general names (5-50)', () => {
  it.each([
    [4, 'Name must be at least 5 characters long.'],
    [5, null],
    [50, null],
    [51, 'Name cannot be longer that 50 characters.'],
  ])('%i characters → %s', (n, message) => expect(checkName(of(n))).toBe(message));
});

describe('card and board names (1-100)', () => {
  it.each([
    [0, 'Name must be between 1 and 100 characters long.'],
    [1, null],
    [100, null],
    [101, 'Name must be between 1 and 100 characters long.'],
  ])('%i characters → %s', (n, message) => expect(checkItemName(of(n))).toBe(message));

  it('counts characters as the user sees them', () => {
    expect(checkItemName('é'.repeat(100))).toBeNull();
    expect(checkItemName('😀'.repeat(100))).toBeNull();
  });

  it('trims before checking, in the schema', () => {
    expect(itemNameSchema.safeParse('   ').success).toBe(false);
    expect(itemNameSchema.parse('  Line 1  ')).toBe('Line 1');
  });
});

describe('short names (1-30)', () => {
  it.each([
    [0, 'Name must be between 1 and 30 characters long.'],
    [1, null],
    [30, null],
    [31, 'Name must be between 1 and 30 characters long.'],
  ])('%i characters → %s', (n, message) => expect(checkShortName(of(n))).toBe(message));
});

describe('forbidden characters', () => {
  it('lists the 27 characters of SPEC §5', () => {
    expect(FORBIDDEN_NAME_CHARACTERS.join('')).toBe('!*\'();:@&=+$,/?%#[]<>"`{}|^');
  });

  it.each(FORBIDDEN_NAME_CHARACTERS.map((c) => [c]))('refuses %s in every kind of name', (c) => {
    const message = `Name contains invalid characters: ${c}`;
    expect(checkName(`Acme ${c} Ltd`)).toBe(message);
    expect(checkItemName(`Line ${c}`)).toBe(message);
    expect(checkShortName(`Dash ${c}`)).toBe(message);
  });

  it('names each character found once, in order', () => {
    expect(forbiddenCharactersIn('a/b?c/d')).toEqual(['/', '?']);
    expect(checkItemName('Line #1 / Shift @2')).toBe('Name contains invalid characters: # / @');
  });

  it('allows the punctuation people use in names', () => {
    expect(checkItemName('Line 1 - Packing (old)'.replace(/[()]/g, ''))).toBeNull();
    expect(checkItemName('Ökonomie_Halle.2 ~ Nord')).toBeNull();
  });
});

describe('email', () => {
  const at = (n: number) => `${'a'.repeat(n - 6)}@ex.co`;
  it.each([
    [4, 'Invalid email address.'],
    [5, null],
    [200, null],
    [201, 'Email address is too long.'],
  ])('%i characters → %s', (n, message) => {
    const email = n === 4 ? 'a@bc' : n === 5 ? 'a@b.c' : at(n);
    expect(email).toHaveLength(n);
    expect(checkEmail(email)).toBe(message);
  });

  it('is not fooled by a long string of the wrong shape', () => {
    expect(checkEmail(`${'a'.repeat(195)}@b`)).toBe('Invalid email address.');
  });

  it.each([
    'plainaddress',
    '@example.com',
    'user@',
    'user@example',
    'user name@example.com',
    'user@@example.com',
    'user@exa mple.com',
    '<a@b.com>',
  ])('refuses the bad shape %s', (email) => expect(checkEmail(email)).toBe('Invalid email address.'));

  it('trims in the schema', () => {
    expect(emailSchema.parse('  ann@example.com ')).toBe('ann@example.com');
  });
});

describe('passwords', () => {
  it.each([
    [7, 'Password must be at least 8 characters long.'],
    [8, null],
    [64, null],
    [128, null],
    [129, 'Password cannot be longer than 128 characters.'],
  ])('%i characters → %s', (n, message) => expect(checkPassword(of(n))).toBe(message));

  it('needs the two entries to match', () => {
    expect(checkPasswordsMatch('password1', 'password1')).toBeNull();
    expect(checkPasswordsMatch('password1', 'password2')).toBe('Passwords do not match');
  });
});

describe('name comparison', () => {
  it('ignores case', () => {
    expect(nameKey('Line ONE')).toBe(nameKey('line one'));
    expect(nameContains('Packing Hall', 'hall')).toBe(true);
    expect(nameContains('Packing Hall', 'kitchen')).toBe(false);
  });
});

describe('anonymous grid columns (SPEC §9)', () => {
  it.each([
    [1, 2],
    [3, 2],
    [4, 2],
    [5, 3],
    [9, 3],
    [10, 4],
    [12, 4],
    [13, 5],
    [32, 11],
    [33, 12],
    [60, 12],
  ])('%i boards → %i columns', (boards, columns) => expect(anonymousGridColumns(boards)).toBe(columns));
});
