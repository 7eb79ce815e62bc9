import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { refineEdges, STRIP_ROWS } from './refine-edges.js';

/** A bright square (the product, 20..44) on a dark floor, 64x64, and a mask blurred and shifted 2 px left. */
function scene() {
  const w = 64,
    h = 64;
  const luma = new Uint8Array(w * h);
  const coarse = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = x >= 20 && x < 44 && y >= 20 && y < 44;
      luma[y * w + x] = inside ? 200 : 40;
      // a soft, misplaced edge: ramps over 6 px, centred 2 px left of the true left and right edges
      const dx = Math.min(x - 18, 42 - x),
        dy = Math.min(y - 20, 44 - y);
      const d = Math.min(dx, dy);
      coarse[y * w + x] = Math.max(0, Math.min(255, Math.round(128 + (d * 255) / 6)));
    }
  return { w, h, luma, coarse };
}

const wrong = (mask: Uint8Array, w: number) => {
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    const x = i % w,
      y = Math.floor(i / w);
    const truth = x >= 20 && x < 44 && y >= 20 && y < 44;
    if (mask[i]! >= 128 !== truth) n++;
  }
  return n;
};

describe('refineEdges', () => {
  it('moves a soft, misplaced edge onto the photo edge', () => {
    const { w, h, luma, coarse } = scene();
    const refined = refineEdges({ data: coarse, width: w, height: h }, luma, { radius: 4 });
    assert.ok(wrong(coarse, w) > 20, `the coarse mask is off by ${wrong(coarse, w)} px`);
    assert.ok(wrong(refined.data, w) < wrong(coarse, w) / 4, `refined: ${wrong(refined.data, w)} px wrong`);
  });

  it('leaves sure pixels alone, far from any unsure ones', () => {
    const w = 32,
      h = 32;
    const sure = new Uint8Array(w * h).fill(255);
    const textured = Uint8Array.from({ length: w * h }, (_, i) => (i * 37) % 256);
    assert.deepEqual(refineEdges({ data: sure, width: w, height: h }, textured, { radius: 3 }).data, sure);
  });

  it("gives the whole-frame guided filter's answer, computed only around the edge band", () => {
    const images = fc
      // up to three strips (STRIP_ROWS) tall, so the seams between strips are crossed
      .record({ width: fc.integer({ min: 1, max: 64 }), height: fc.integer({ min: 1, max: 3 * STRIP_ROWS }) })
      .chain(({ width, height }) =>
        fc.record({
          width: fc.constant(width),
          height: fc.constant(height),
          // mostly sure (0 or 255) with a few unsure pixels, as a model's mask is; sometimes so few
          // that the edge crosses a strip in separate stretches of columns
          prob: fc
            .tuple(fc.uint8Array({ minLength: width * height, maxLength: width * height }), fc.constantFrom(240, 254))
            .map(([d, sure]) => d.map((v) => (v < 100 ? 0 : v < sure ? 255 : (v * 7) % 256))),
          luma: fc.uint8Array({ minLength: width * height, maxLength: width * height }),
        }),
      );
    fc.assert(
      fc.property(images, fc.integer({ min: 1, max: 4 }), ({ width, height, prob, luma }, radius) => {
        const fast = refineEdges({ data: prob, width, height }, luma, { radius });
        const slow = referenceGuidedFilter(prob, luma, width, height, radius, 1e-3);
        for (let i = 0; i < slow.length; i++) assert.ok(Math.abs(fast.data[i]! - slow[i]!) <= 1, `pixel ${i}`);
      }),
      { numRuns: 300 },
    );
  });
});

/** The filter over the whole frame, every box mean by brute force: slow and plainly right. */
function referenceGuidedFilter(prob: Uint8Array, luma: Uint8Array, w: number, h: number, r: number, eps: number) {
  const mean = (f: (i: number) => number) =>
    Float64Array.from({ length: w * h }, (_, i) => {
      const x = i % w,
        y = Math.floor(i / w);
      let s = 0,
        n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++, n++) s += f(yy * w + xx);
      return s / n;
    });
  const I = (i: number) => luma[i]! / 255,
    p = (i: number) => prob[i]! / 255;
  const mI = mean(I),
    mp = mean(p),
    mII = mean((i) => I(i) * I(i)),
    mIp = mean((i) => I(i) * p(i));
  const a = Float64Array.from(
    { length: w * h },
    (_, i) => (mIp[i]! - mI[i]! * mp[i]!) / (mII[i]! - mI[i]! * mI[i]! + eps),
  );
  const b = Float64Array.from({ length: w * h }, (_, i) => mp[i]! - a[i]! * mI[i]!);
  const mA = mean((i) => a[i]!),
    mB = mean((i) => b[i]!);
  const unsure = (i: number) => prob[i]! > 5 && prob[i]! < 250;
  return Uint8Array.from({ length: w * h }, (_, i) => {
    const x = i % w,
      y = Math.floor(i / w);
    let near = false;
    for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
      for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) near ||= unsure(yy * w + xx);
    if (!near) return prob[i]!;
    const q = mA[i]! * I(i) + mB[i]!;
    return q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
  });
}
