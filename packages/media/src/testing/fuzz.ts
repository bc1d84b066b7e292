/**
 * Fuzzing support shared by every parser of network input. A `*.fuzz.ts` file exports
 * `fuzzTargets`; the bounded unit test runs each target for 100k cases, `npm run fuzz` runs them
 * for longer. A target may throw ParseError, ProtocolError or UnsupportedError; anything else,
 * a hang or unbounded memory is a bug.
 */
import { ParseError, ProtocolError, UnsupportedError } from '../errors.js';

/** One parser under fuzz. */
export interface FuzzTarget {
  readonly name: string;
  /** Valid inputs the mutator starts from. */
  readonly seeds: readonly Uint8Array[];
  /** Parses one input; must return or throw an expected media error. */
  run(input: Uint8Array): void;
}

/** Small deterministic PRNG (mulberry32) so failures reproduce from the seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Produces a random or mutated input from the seeds. */
export function mutate(seeds: readonly Uint8Array[], random: () => number, maxLength = 4096): Uint8Array {
  const pick = Math.floor(random() * (seeds.length + 1));
  const seed = seeds[pick];
  if (!seed || random() < 0.1) {
    const out = new Uint8Array(Math.floor(random() * Math.min(maxLength, 512)));
    for (let i = 0; i < out.length; i++) {
      out[i] = Math.floor(random() * 256);
    }
    return out;
  }
  let out = seed.slice(0, Math.min(seed.length, maxLength));
  const rounds = 1 + Math.floor(random() * 4);
  for (let r = 0; r < rounds; r++) {
    const op = Math.floor(random() * 5);
    const at = out.length === 0 ? 0 : Math.floor(random() * out.length);
    if (op === 0 && out.length > 0) {
      out[at] = (out[at] as number) ^ (1 << Math.floor(random() * 8));
    } else if (op === 1 && out.length > 0) {
      out[at] = Math.floor(random() * 256);
    } else if (op === 2) {
      out = out.slice(0, at);
    } else if (op === 3 && out.length < maxLength) {
      const insert = new Uint8Array(1 + Math.floor(random() * 16));
      for (let i = 0; i < insert.length; i++) {
        insert[i] = random() < 0.5 ? 0xff : Math.floor(random() * 256);
      }
      const next = new Uint8Array(out.length + insert.length);
      next.set(out.subarray(0, at));
      next.set(insert, at);
      next.set(out.subarray(at), at + insert.length);
      out = next;
    } else if (out.length > 0) {
      const from = Math.floor(random() * out.length);
      const len = Math.min(out.length - at, 1 + Math.floor(random() * 32));
      out.copyWithin(at, from, from + len);
    }
  }
  return out;
}

/** True for the errors a parser is allowed to throw on bad input. */
export function isExpectedMediaError(error: unknown): boolean {
  return error instanceof ParseError || error instanceof ProtocolError || error instanceof UnsupportedError;
}

/**
 * Runs a target for `cases` inputs; returns counts. Throws on the first unexpected error, and when
 * no input at all was accepted (a target rejecting everything tests nothing).
 */
export function runFuzz(target: FuzzTarget, cases: number, seed = 1): { ok: number; rejected: number } {
  const random = prng(seed);
  let ok = 0;
  let rejected = 0;
  for (let i = 0; i < cases; i++) {
    const input = mutate(target.seeds, random);
    try {
      target.run(input);
      ok++;
    } catch (error) {
      if (!isExpectedMediaError(error)) {
        const hex = Buffer.from(input).toString('hex');
        throw new Error(`${target.name}: case ${i} (seed ${seed}) threw ${String(error)}; input ${hex}`, {
          cause: error,
        });
      }
      rejected++;
    }
  }
  if (ok === 0) {
    throw new Error(`${target.name}: none of ${cases} inputs was accepted; the seeds or the target are broken`);
  }
  return { ok, rejected };
}
