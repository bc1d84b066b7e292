import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCidrList } from './cidr.js';
import { clientAddress, forwardedFor, xForwardedFor } from './client-address.js';

const trusted = parseCidrList('127.0.0.0/8, 10.0.0.0/8 ::1');

describe('CIDR lists', () => {
  it('match IPv4, IPv6 and IPv4-mapped IPv6 addresses; bare addresses are /32 or /128', () => {
    const set = parseCidrList('192.0.2.0/24 2001:db8::/32,198.51.100.7');
    assert.equal(set.size, 3);
    assert.ok(set.has('192.0.2.200'));
    assert.ok(set.has('::ffff:192.0.2.1'));
    assert.ok(set.has('2001:DB8::1'));
    assert.ok(set.has('198.51.100.7'));
    assert.ok(!set.has('198.51.100.8'));
    assert.ok(!set.has('192.0.3.1'));
    assert.ok(!set.has('not an ip'));
    assert.ok(!parseCidrList('').has('127.0.0.1'), 'an empty list trusts nobody');
  });

  it('refuse bad entries by name', () => {
    assert.throws(() => parseCidrList('10.0.0.0/33'), /"10\.0\.0\.0\/33"/);
    assert.throws(() => parseCidrList('example.com'), /"example\.com"/);
    assert.throws(() => parseCidrList('::1/129'), /::1\/129/);
    assert.throws(() => parseCidrList('10.0.0.0/x'), /10\.0\.0\.0\/x/);
  });
});

describe('client address', () => {
  it('is the socket peer when the peer is not a trusted proxy, whatever the headers say', () => {
    assert.deepEqual(clientAddress({ peer: '203.0.113.9', xForwardedFor: '81.2.69.142' }, trusted), {
      ok: true,
      ip: '203.0.113.9',
      forwarded: false,
    });
    assert.deepEqual(clientAddress({ peer: '::ffff:203.0.113.9' }, trusted), {
      ok: true,
      ip: '203.0.113.9',
      forwarded: false,
    });
  });

  it('walks X-Forwarded-For from the right past trusted proxies', () => {
    const result = clientAddress({ peer: '127.0.0.1', xForwardedFor: '198.51.100.1, 81.2.69.142, 10.1.2.3' }, trusted);
    assert.deepEqual(result, { ok: true, ip: '81.2.69.142', forwarded: true });
    assert.deepEqual(clientAddress({ peer: '127.0.0.1', xForwardedFor: ['10.0.0.9', '10.0.0.8'] }, trusted), {
      ok: true,
      ip: '10.0.0.9',
      forwarded: true,
    });
  });

  it('prefers Forwarded (RFC 7239) with quoted IPv6 and ports', () => {
    const forwarded = 'for=198.51.100.17;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1';
    assert.deepEqual(clientAddress({ peer: '::1', forwarded, xForwardedFor: '192.0.2.1' }, trusted), {
      ok: true,
      ip: '2001:db8:cafe::17',
      forwarded: true,
    });
    assert.deepEqual(forwardedFor('for=192.0.2.43:47011'), ['192.0.2.43']);
    assert.deepEqual(forwardedFor('proto=http'), undefined);
  });

  it('says why when it cannot tell', () => {
    assert.deepEqual(clientAddress({ peer: undefined }, trusted), { ok: false, problem: 'no-peer' });
    assert.deepEqual(clientAddress({ peer: '127.0.0.1' }, trusted), { ok: false, problem: 'no-forwarding-header' });
    assert.deepEqual(clientAddress({ peer: '127.0.0.1', xForwardedFor: 'example.com' }, trusted), {
      ok: false,
      problem: 'malformed-forwarding-header',
    });
    assert.deepEqual(clientAddress({ peer: '127.0.0.1', forwarded: 'for=unknown' }, trusted), {
      ok: false,
      problem: 'obfuscated',
    });
    assert.deepEqual(clientAddress({ peer: '127.0.0.1', forwarded: 'for="[::1' }, trusted), {
      ok: false,
      problem: 'malformed-forwarding-header',
    });
    assert.equal(xForwardedFor('1.1.1.1,'.repeat(65).slice(0, -1)), 'malformed', 'too many hops');
  });
});
