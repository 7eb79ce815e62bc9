import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { boxMean, refineEdges } from './refine-edges.js';

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

  it('box means clip at the borders', () => {
    const ones = new Float32Array(25).fill(1);
    assert.ok(boxMean(ones, 5, 5, 2).every((v) => Math.abs(v - 1) < 1e-6));
    const ramp = Float32Array.from({ length: 5 }, (_, i) => i);
    assert.deepEqual(Array.from(boxMean(ramp, 5, 1, 1)), [0.5, 1, 2, 3, 3.5]);
  });
});
