/**
 * Password hashing with scrypt (node:crypto): a random salt per password, the cost parameters
 * stored beside the hash (`scrypt$N$r$p$salt$hash`), and a timing-safe comparison.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors.js';

/** Shortest password accepted (characters). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest password accepted (characters); bounds the hashing work per request. */
export const PASSWORD_MAX_LENGTH = 1024;

const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? COST.N) * (options.r ?? COST.r) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { ...options, maxmem }, (error, key) => {
      if (error) {
        reject(error);
      } else {
        resolve(key);
      }
    });
  });
}

/** Checks the length rules of a new password; `field` names the input for the error. */
export function validatePassword(password: string, field: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new ValidationError(
      field,
      'length',
      `password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`,
    );
  }
}

/** Hashes a password into the self-describing stored form. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_LENGTH);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    return false;
  }
  const [N, r, p] = parts.slice(1, 4).map((value) => Number.parseInt(value ?? '', 10));
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (!N || !r || !p || N > 1_048_576 || r > 32 || p > 16 || salt.length === 0 || expected.length === 0) {
    return false;
  }
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/** A hash of a random password, verified against when an email is unknown so timing matches. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
