import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { viewerSessionId } from './viewer-session.js';

describe('viewerSessionId', () => {
  it('is stable for one viewer and tells apart viewers that differ only in ?session=', () => {
    const ua = 'Mozilla/5.0 SameBrowser';
    const a = viewerSessionId('203.0.113.7', ua, 'viewer-a');
    assert.match(a, /^[\w-]{22}$/);
    assert.equal(viewerSessionId('203.0.113.7', ua, 'viewer-a'), a, 'same inputs, same id');
    const b = viewerSessionId('203.0.113.7', ua, 'viewer-b');
    const none = viewerSessionId('203.0.113.7', ua, undefined);
    assert.equal(new Set([a, b, none]).size, 3);
    assert.notEqual(viewerSessionId('203.0.113.8', ua, 'viewer-a'), a, 'another address');
    assert.notEqual(viewerSessionId('203.0.113.7', 'curl/8', 'viewer-a'), a, 'another user agent');
  });

  it('derives the same id for long inputs it does not memoise', () => {
    const ua = 'u'.repeat(600);
    assert.equal(viewerSessionId('1.2.3.4', ua, 's'), viewerSessionId('1.2.3.4', ua, 's'));
    assert.notEqual(viewerSessionId('1.2.3.4', ua, 's'), viewerSessionId('1.2.3.4', ua, 't'));
  });
});
