import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccessDecision } from '../../domain/playback-access/playback-access.service.js';
import { gateAnswer, redactToken } from './playback-gate.js';

const decision = (overrides: Partial<AccessDecision>): AccessDecision => ({
  allowed: true,
  status: 200,
  policyType: 'JWT',
  reason: 'jwt-valid',
  detail: '',
  kid: 'k',
  webhookStatus: null,
  webhookLatencyMs: null,
  token: null,
  claims: null,
  ...overrides,
});

describe('playback gate adapter', () => {
  it('redacts every jwt query value and nothing else', () => {
    assert.equal(redactToken('/play/a/hls/index.m3u8?jwt=a.b.c'), '/play/a/hls/index.m3u8?jwt=redacted');
    assert.equal(redactToken('/p?x=1&jwt=a.b.c&y=2'), '/p?x=1&jwt=redacted&y=2');
    assert.equal(redactToken('/p?notjwt=1&jwt=t#f'), '/p?notjwt=1&jwt=redacted#f');
    assert.equal(redactToken('/p?session=s'), '/p?session=s');
  });

  it('carries an accepted token into listed URIs, URL-encoded, under the viewer session', () => {
    assert.deepEqual(gateAnswer(decision({ token: 'a.b+c' }), 'sess'), {
      allowed: true,
      sessionId: 'sess',
      uriQuery: 'jwt=a.b%2Bc',
    });
    assert.deepEqual(gateAnswer(decision({ policyType: 'PUBLIC', reason: 'public', kid: null }), 's'), {
      allowed: true,
      sessionId: 's',
    });
  });

  it('answers refusals with their status, reason and message', () => {
    assert.deepEqual(
      gateAnswer(decision({ allowed: false, status: 403, reason: 'jwt-sub-mismatch', detail: 'wrong sub' }), 's'),
      { allowed: false, status: 403, reason: 'jwt-sub-mismatch', message: 'wrong sub' },
    );
    assert.equal(gateAnswer(decision({ allowed: false, status: 401, reason: 'missing-token' }), 's').allowed, false);
  });
});
