import { isSignatureBand, SIGNATURE_BANDS, signatureBands, signatureCosine, vectorSignature } from './node-signature';

/** A deterministic generator, so a failing case can be replayed. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random unit vector, and one at exactly `cosine` from it. */
function pairAt(cosine: number, dimensions: number, random: () => number): [number[], number[]] {
  const normal = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const unit = (v: number[]) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / norm);
  };
  const a = unit(Array.from({ length: dimensions }, normal));
  const r = Array.from({ length: dimensions }, normal);
  const dot = r.reduce((s, x, i) => s + x * a[i], 0);
  const b = unit(r.map((x, i) => x - dot * a[i]));
  return [a, a.map((x, i) => cosine * x + Math.sqrt(1 - cosine * cosine) * b[i])];
}

describe('node signatures (vector-neighbour blocking)', () => {
  it('estimates the cosine of two vectors from their signatures alone, at any dimension count', () => {
    const random = seeded(42);
    for (const dimensions of [64, 512, 1536]) {
      for (const cosine of [0.95, 0.8, 0.5, 0, -0.5]) {
        const errors = Array.from({ length: 20 }, () => {
          const [a, b] = pairAt(cosine, dimensions, random);
          return Math.abs(signatureCosine(vectorSignature(a)!, vectorSignature(b)!) - cosine);
        });
        // 128 bits: the angle is read to about ±0.14 rad, so the mean error stays well under 0.15.
        expect(errors.reduce((s, e) => s + e, 0) / errors.length).toBeLessThan(0.15);
      }
    }
  });

  it('is deterministic, scale-free, 128 bits as 32 hex digits, and null for the zero vector', () => {
    const [a] = pairAt(0.9, 300, seeded(7));
    const signature = vectorSignature(a)!;
    expect(signature).toMatch(/^[0-9a-f]{32}$/u);
    expect(vectorSignature(a.map((x) => x * 1000))).toBe(signature);
    expect(vectorSignature([...a])).toBe(signature);
    expect(signatureCosine(signature, signature)).toBe(1);
    expect(signatureCosine(signature, vectorSignature(a.map((x) => -x))!)).toBe(-1);
    expect(vectorSignature(new Array(300).fill(0))).toBeNull();
  });

  it('gives near vectors a band in common, and unrelated ones seldom', () => {
    const random = seeded(3);
    const shareABand = (cosine: number, trials: number) => {
      let shared = 0;
      for (let t = 0; t < trials; t++) {
        const [a, b] = pairAt(cosine, 256, random);
        const bands = new Set(signatureBands(vectorSignature(a)!));
        if (signatureBands(vectorSignature(b)!).some((band) => bands.has(band))) shared++;
      }
      return shared / trials;
    };
    expect(shareABand(0.95, 100)).toBeGreaterThan(0.95);
    expect(shareABand(0.8, 100)).toBeGreaterThan(0.85);
    expect(shareABand(0, 300)).toBeLessThan(0.12);
    const bands = signatureBands(vectorSignature(pairAt(0.5, 32, random)[0])!);
    expect(bands).toHaveLength(SIGNATURE_BANDS);
    expect(new Set(bands.map((b) => b.split(':')[0])).size).toBe(SIGNATURE_BANDS);
    expect(bands.every(isSignatureBand)).toBe(true);
    expect(isSignatureBand('refund')).toBe(false);
  });
});
