import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTextProblem, MAX_TEXT_ARGUMENT_LENGTH, textArgumentProblem } from './text-arguments.js';

describe('text arguments', () => {
  test('keeps ordinary text, emoji, right-to-left scripts, tabs and line breaks', () => {
    for (const value of [
      'My show',
      '🎥 live 🔴👩🏽‍💻',
      'שלום עולם',
      'مرحبا',
      'line one\nline two\ttabbed\r\n.',
      'x'.repeat(MAX_TEXT_ARGUMENT_LENGTH),
    ]) {
      assert.equal(textArgumentProblem(value, 'input.name'), undefined, JSON.stringify(value.slice(0, 20)));
    }
  });

  test('refuses NUL, other control characters, lone surrogates, bidi overrides, surrounding whitespace and overlong text, naming the path', () => {
    for (const [value, constraint] of [
      ['a\u0000b', 'characters'],
      ['a\u001bb', 'characters'],
      ['a\u007fb', 'characters'],
      ['a\ud800b', 'encoding'],
      ['a\udc00', 'encoding'],
      ['abc\u202edef', 'characters'],
      ['abc\u2066def', 'characters'],
      [' padded', 'whitespace'],
      ['padded\n', 'whitespace'],
      ['x'.repeat(MAX_TEXT_ARGUMENT_LENGTH + 1), 'length'],
    ] as const) {
      const problem = textArgumentProblem(value, 'input.name');
      assert.equal(problem?.field, 'input.name', JSON.stringify(value.slice(0, 20)));
      assert.equal(problem?.constraint, constraint, JSON.stringify(value.slice(0, 20)));
    }
  });

  test('passwords and secrets keep their surrounding whitespace, but not NUL', () => {
    assert.equal(textArgumentProblem('  spaced passphrase  ', 'input.password'), undefined);
    assert.equal(textArgumentProblem(' secret ', 'input.policy.webhook.secret'), undefined);
    assert.equal(textArgumentProblem('pass\u0000word', 'input.password')?.constraint, 'characters');
  });

  test('walks nested inputs and lists, and names the first refused path', () => {
    const args = { id: 'abc', input: { policy: { jwt: { allowedKids: ['ok', 'bad\u0000'] } }, name: 'fine' } };
    assert.equal(findTextProblem(args, '')?.field, 'input.policy.jwt.allowedKids[1]');
    assert.equal(findTextProblem({ input: { name: 'fine', count: 3, on: true, none: null } }, ''), undefined);
  });
});

describe('text arguments of queries (lookups)', () => {
  test('refuse what no lookup can take, and keep the rest as given', () => {
    assert.equal(textArgumentProblem('a\u0000b', 'search', 'lookup')?.constraint, 'characters');
    assert.equal(textArgumentProblem('a\ud800b', 'search', 'lookup')?.constraint, 'encoding');
    assert.equal(textArgumentProblem(' show ', 'search', 'lookup'), undefined);
    assert.equal(textArgumentProblem('abc\u202edef', 'search', 'lookup'), undefined);
  });
});
