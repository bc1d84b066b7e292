/**
 * scrypt password hashes: salted, self-describing, verified only by the right password, and
 * never by a malformed stored value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../errors.js';
import { hashPassword, validatePassword, verifyPassword } from './password.js';

test('hashes are salted and carry their parameters; only the right password verifies', async () => {
  const first = await hashPassword('correct horse');
  const second = await hashPassword('correct horse');
  assert.notEqual(first, second, 'a fresh salt each time');
  assert.match(first, /^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
  assert.equal(await verifyPassword('correct horse', first), true);
  assert.equal(await verifyPassword('correct horse', second), true);
  assert.equal(await verifyPassword('correct horsE', first), false);
  assert.equal(await verifyPassword('', first), false);
});

test('stored parameters are honoured, so old hashes keep working when defaults change', async () => {
  const stored = await hashPassword('parameters');
  const parts = stored.split('$');
  assert.equal(parts.length, 6);
  const tampered = ['scrypt', '1024', ...parts.slice(2)].join('$');
  assert.equal(await verifyPassword('parameters', tampered), false, 'another N derives another key');
});

test('malformed stored values never verify', async () => {
  for (const stored of [
    '',
    'plain',
    'scrypt$x$8$1$c2FsdA==$aGFzaA==',
    'bcrypt$1$2$3$4$5',
    'scrypt$16384$8$1$$',
    'scrypt$99999999$8$1$c2FsdA==$aGFzaA==',
  ]) {
    assert.equal(await verifyPassword('anything', stored), false, stored);
  }
});

test('passwords must be 8 to 1024 characters', () => {
  assert.doesNotThrow(() => validatePassword('12345678', 'input.password'));
  assert.doesNotThrow(() => validatePassword('x'.repeat(1024), 'input.password'));
  for (const bad of ['1234567', 'x'.repeat(1025)]) {
    assert.throws(
      () => validatePassword(bad, 'input.password'),
      (error: unknown) =>
        error instanceof ValidationError && error.field === 'input.password' && error.constraint === 'length',
    );
  }
});
