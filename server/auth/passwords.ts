/** Passwords: argon2id with OWASP's parameters (m=19456 KiB, t=2, p=1), hashed off the main thread. */
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2 (a const enum, which isolated modules cannot read).
const ARGON2ID = 2;

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Compared against when the account does not exist, so both answers take the same time.
let dummy: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummy ??= hashPassword('not a real password, only for timing');
  await verifyPassword(await dummy, password);
}
