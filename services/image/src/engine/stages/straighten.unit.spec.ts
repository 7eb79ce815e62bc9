import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import type { Mask } from '../types.js';
import { maskFrom, rotatedRect, tshirt } from '../testing/fixtures.js';
import { boundingBox } from './mask-ops.js';
import {
  levelCorrection,
  mirrorScore,
  principalCorrection,
  rotateMask,
  symmetryAxis,
  symmetryCorrection,
} from './straighten.js';

/** Nearest-neighbour rotation written plainly, each source position computed in full: the oracle. */
function referenceRotate(m: Mask, deg: number): Mask {
  const t = (deg * Math.PI) / 180,
    c = Math.cos(t),
    s = Math.sin(t);
  const w = Math.ceil(Math.abs(m.width * c) + Math.abs(m.height * s));
  const h = Math.ceil(Math.abs(m.width * s) + Math.abs(m.height * c));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const dx = x + 0.5 - w / 2,
        dy = y + 0.5 - h / 2;
      const sx = Math.floor(dx * c + dy * s + m.width / 2),
        sy = Math.floor(-dx * s + dy * c + m.height / 2);
      if (sx >= 0 && sy >= 0 && sx < m.width && sy < m.height) out[y * w + x] = m.data[sy * m.width + sx]!;
    }
  return { data: out, width: w, height: h };
}

describe('straighten', () => {
  it('rotates a mask exactly as the plain nearest-neighbour rotation does', () => {
    const masks = fc
      .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 40 }) })
      .chain(({ width, height }) =>
        fc
          .uint8Array({ minLength: width * height, maxLength: width * height })
          .map((data) => ({ width, height, data })),
      );
    fc.assert(
      fc.property(masks, fc.double({ min: -20, max: 20, noNaN: true }), (m, deg) => {
        const fast = rotateMask(m, deg),
          slow = referenceRotate(m, deg);
        assert.deepEqual(
          [fast.width, fast.height, Array.from(fast.data)],
          [slow.width, slow.height, Array.from(slow.data)],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('levels a rotated rectangle by its principal axis', () => {
    for (const deg of [-17, -6, 4, 12]) {
      const m = maskFrom(400, 300, rotatedRect(200, 150, 220, 90, deg));
      const fix = principalCorrection(m);
      assert.ok(Math.abs(fix.deg + deg) < 0.5, `rotated ${deg}, correction ${fix.deg}`);
      const level = rotateMask(m, levelCorrection(m, 'principal'));
      const b = boundingBox(level)!;
      // level again: the box is as tight as the unrotated rectangle (220 x 90)
      assert.ok(Math.abs(b.right - b.left - 220) <= 4 && Math.abs(b.bottom - b.top - 90) <= 4, JSON.stringify(b));
    }
  });

  it('levels a symmetric garment shape by its mirror symmetry', () => {
    for (const deg of [-13, 9]) {
      const m = maskFrom(400, 400, tshirt(200, 200, 200, deg));
      const fix = symmetryCorrection(m);
      assert.ok(Math.abs(fix.deg + deg) <= 1, `rotated ${deg}, correction ${fix.deg}`);
      assert.ok(fix.score > 0.95);
    }
  });

  it('leaves an upright product alone', () => {
    const m = maskFrom(300, 300, tshirt(150, 150, 150, 0));
    assert.equal(levelCorrection(m, 'symmetry'), 0);
    assert.equal(levelCorrection(m, 'none'), 0);
  });

  it('never corrects more than 20 degrees', () => {
    const m = maskFrom(400, 400, rotatedRect(200, 200, 260, 80, 35));
    assert.ok(Math.abs(levelCorrection(m, 'principal')) <= 20);
  });

  it('finds the vertical axis of symmetry of an off-centre shape', () => {
    const m = maskFrom(500, 300, tshirt(320, 150, 160, 0));
    const axis = symmetryAxis(m);
    assert.ok(Math.abs(axis.x - 320) <= 1.5, `axis ${axis.x}`);
    assert.ok(mirrorScore(m, axis.x) > 0.97);
  });
});
