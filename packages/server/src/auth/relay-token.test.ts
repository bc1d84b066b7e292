import assert from 'node:assert/strict';
import { it } from 'node:test';
import { signRelayToken, verifyRelayToken } from './relay-token.js';

const KEY = 'k'.repeat(43);
const STREAM = '3f0a6f7e-2c1d-4b8a-9e5f-1a2b3c4d5e6f';

it('relay tokens name one stream and node, expire, and need the deployment key', () => {
  const now = Date.now();
  const token = signRelayToken(KEY, STREAM, 'edge-b', now);
  assert.equal(verifyRelayToken(KEY, STREAM, token, now), 'edge-b');
  assert.equal(verifyRelayToken(KEY, '00000000-0000-4000-8000-000000000000', token, now), undefined, 'another stream');
  assert.equal(verifyRelayToken('x'.repeat(43), STREAM, token, now), undefined, 'another key');
  assert.equal(verifyRelayToken(KEY, STREAM, token, now + 61_000), undefined, 'expired');
  assert.equal(verifyRelayToken(KEY, STREAM, token.replace('edge-b', 'edge-c'), now), undefined, 'another node');
  assert.equal(verifyRelayToken(KEY, STREAM, 'garbage', now), undefined);
});
