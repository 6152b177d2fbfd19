/** 2^-32: turns a 32-bit unsigned integer into a float in [0, 1). */
const UNIT = 1 / 4_294_967_296;

/** One step of splitmix32, which spreads a seed over the generator's state words. */
function splitmix32(state: number): [next: number, output: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return [next, (z ^ (z >>> 15)) >>> 0];
}

/**
 * A seeded pseudo-random generator (xoshiro128**, state seeded by splitmix32) for deterministic simulations:
 * the same seed gives the same sequence on every platform. Not for secrets: the Random port is.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** @param seed a non-negative safe integer; its high and low 32 bits both feed the state. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new RangeError('a seed is a non-negative safe integer');
    let state = (seed >>> 0) ^ Math.floor(seed / 4_294_967_296);
    const words: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const [next, output] = splitmix32(state);
      state = next;
      words.push(output);
    }
    [this.a, this.b, this.c, this.d] = words as [number, number, number, number];
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next 32-bit unsigned integer. */
  next32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next32() * UNIT;
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return Math.floor(this.float() * bound);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One item of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/**
 * Samples indexes 0..n-1 with given weights in constant time per draw (Walker's alias method, one random
 * number per draw): Zipf ranks, device shares, query types, hours of the day.
 */
export class WeightedSampler {
  private readonly probability: Float64Array;
  private readonly alias: Uint32Array;
  private readonly shares: Float64Array;

  constructor(weights: readonly number[]) {
    const n = weights.length;
    if (n === 0) throw new RangeError('a weighted sampler needs at least one weight');
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    if (!(total > 0)) throw new RangeError('a weighted sampler needs a positive total weight');
    this.shares = Float64Array.from(weights, (weight) => weight / total);
    this.probability = new Float64Array(n);
    this.alias = new Uint32Array(n);
    const scaled = Float64Array.from(this.shares, (share) => share * n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((value, index) => {
      (value < 1 ? small : large).push(index);
    });
    for (;;) {
      const less = small.pop();
      const more = large.pop();
      if (less === undefined || more === undefined) {
        for (const index of [
          ...small,
          ...large,
          ...(less === undefined ? [] : [less]),
          ...(more === undefined ? [] : [more]),
        ])
          this.probability[index] = 1;
        break;
      }
      this.probability[less] = scaled[less] as number;
      this.alias[less] = more;
      scaled[more] = (scaled[more] as number) + (scaled[less] as number) - 1;
      ((scaled[more] as number) < 1 ? small : large).push(more);
    }
  }

  /** Zipf weights 1/rank^exponent for `n` ranks. */
  static zipf(n: number, exponent: number): WeightedSampler {
    return new WeightedSampler(Array.from({ length: n }, (_unused, rank) => 1 / (rank + 1) ** exponent));
  }

  get size(): number {
    return this.shares.length;
  }

  /** The probability of index `index`. */
  share(index: number): number {
    return this.shares[index] ?? 0;
  }

  sample(random: SeededRandom): number {
    const scaled = random.float() * this.probability.length;
    const index = Math.floor(scaled);
    return scaled - index < (this.probability[index] as number) ? index : (this.alias[index] as number);
  }
}
