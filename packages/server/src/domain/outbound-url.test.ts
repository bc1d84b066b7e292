import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from './errors.js';
import { checkOutboundHost, classifyAddress } from './outbound-url.js';

const base = { field: 'input.url', optInSetting: 'AIRWAVE_ALLOW_TEST' } as const;

describe('classifyAddress', () => {
  const cases: [string, 'public' | 'private'][] = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'private'],
    ['127.255.0.9', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['239.255.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['192.0.2.10', 'private'],
    ['2606:4700:4700::1111', 'public'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fe80::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'private'],
    ['ff3e::8000:1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'private'],
    ['2001:db8::1', 'private'],
    ['[::1]', 'private'],
  ];
  for (const [address, expected] of cases) {
    it(`${address} is ${expected}`, () => {
      assert.equal(classifyAddress(address), expected);
    });
  }

  it('rejects a non-address', () => {
    assert.throws(() => classifyAddress('example.com'), TypeError);
  });
});

describe('checkOutboundHost', () => {
  it('accepts a public literal without resolving', async () => {
    const check = await checkOutboundHost('8.8.8.8', {
      ...base,
      allowPrivate: false,
      resolve: () => Promise.reject(new Error('must not resolve a literal')),
    });
    assert.deepEqual(check, { class: 'public', addresses: ['8.8.8.8'] });
  });

  it('refuses a private literal unless allowed, naming the field and the setting', async () => {
    await assert.rejects(
      checkOutboundHost('192.168.0.10', { ...base, allowPrivate: false }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.field === 'input.url' &&
        error.constraint === 'public_address' &&
        error.message.includes('AIRWAVE_ALLOW_TEST'),
    );
    const allowed = await checkOutboundHost('192.168.0.10', { ...base, allowPrivate: true });
    assert.equal(allowed.class, 'private');
  });

  it('refuses a bracketed IPv4-mapped loopback', async () => {
    await assert.rejects(checkOutboundHost('[::ffff:7f00:1]', { ...base, allowPrivate: false }), ValidationError);
  });

  it('resolves names with the system resolver: localhost is loopback', async () => {
    await assert.rejects(
      checkOutboundHost('localhost', { ...base, allowPrivate: false }),
      (error: unknown) => error instanceof ValidationError && error.constraint === 'public_address',
    );
  });

  it('resolves odd numeric host forms the way the connection would (0x7f.1 is 127.0.0.1)', async () => {
    await assert.rejects(checkOutboundHost('0x7f.1', { ...base, allowPrivate: false }), ValidationError);
  });

  it('refuses a name when any of its addresses is private', async () => {
    await assert.rejects(
      checkOutboundHost('mixed.example', {
        ...base,
        allowPrivate: false,
        resolve: async () => ['8.8.8.8', '10.0.0.1'],
      }),
      ValidationError,
    );
    const ok = await checkOutboundHost('public.example', {
      ...base,
      allowPrivate: false,
      resolve: async () => ['8.8.4.4'],
    });
    assert.deepEqual(ok.addresses, ['8.8.4.4']);
  });

  it('refuses a name that does not resolve and an empty host', async () => {
    await assert.rejects(
      checkOutboundHost('no-such-host.invalid', { ...base, allowPrivate: true }),
      (error: unknown) => error instanceof ValidationError && error.constraint === 'resolvable',
    );
    await assert.rejects(
      checkOutboundHost('', { ...base, allowPrivate: true }),
      (error: unknown) => error instanceof ValidationError && error.constraint === 'host',
    );
  });
});
