/**
 * The per-caller token bucket, on an injected clock: the burst, the refill, separate callers,
 * the retry hint, and 0 as "off".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimitedError } from '../domain/errors.js';
import { RequestRateLimiter } from './request-rate-limiter.js';

test('a caller gets perMinute requests at once, then waits for the refill', () => {
  let now = 1_000_000;
  const limiter = new RequestRateLimiter(60, () => now);
  for (let i = 0; i < 60; i++) {
    limiter.take('a');
  }
  assert.throws(
    () => limiter.take('a'),
    (error: unknown) =>
      error instanceof RateLimitedError &&
      error.retryAfterSeconds === 1 &&
      /60 requests per minute/.test(error.message),
  );
  limiter.take('b');
  now += 1000;
  limiter.take('a');
  assert.throws(() => limiter.take('a'), RateLimitedError);
  now += 60_000;
  for (let i = 0; i < 60; i++) {
    limiter.take('a');
  }
  assert.throws(() => limiter.take('a'), RateLimitedError, 'the bucket never holds more than perMinute');
});

test('retryAfter is the time until one request is available', () => {
  const limiter = new RequestRateLimiter(2, () => 0);
  limiter.take('slow');
  limiter.take('slow');
  assert.throws(
    () => limiter.take('slow'),
    (error: unknown) => error instanceof RateLimitedError && error.retryAfterSeconds === 30,
  );
});

test('0 turns the limit off', () => {
  const limiter = new RequestRateLimiter(0);
  for (let i = 0; i < 10_000; i++) {
    limiter.take('any');
  }
});
