import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import type { Mask } from '../types.js';
import { maskFrom, rotatedRect, tshirt, turned } from '../testing/fixtures.js';
import { boundingBox } from './mask-ops.js';
import {
  edgeCorrection,
  levelCorrection,
  levelDecision,
  mirrorScore,
  principalCorrection,
  rotateMask,
  symmetryAxis,
  symmetryCorrection,
} from './straighten.js';

/**
 * A bag seen from the front whose mirror axis is weak: a box body, a pocket on one side and a
 * handle off centre (mirror score about 0.86; its long axis is 13° off when it stands upright).
 */
const bag = (u: number, v: number) =>
  (Math.abs(u) <= 110 && Math.abs(v - 20) <= 80) ||
  (u >= 110 && u <= 150 && v >= 0 && v <= 90) ||
  (v <= -60 && v >= -140 && Math.hypot(u + 20, v + 60) <= 70 && Math.hypot(u + 20, v + 60) >= 56);

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

  it("finds the angle of a rotated rectangle's straight edges, and none in a disc", () => {
    for (const deg of [-17, -8, -2.5, 0, 3, 11]) {
      const e = edgeCorrection(maskFrom(800, 600, rotatedRect(400, 300, 330, 250, deg)));
      assert.ok(Math.abs(e.deg + deg) <= 0.5, `rotated ${deg}, correction ${e.deg}`);
      assert.ok(e.strength > 0.9, `rotated ${deg}, strength ${e.strength}`);
    }
    const disc = edgeCorrection(maskFrom(600, 600, (x, y) => Math.hypot(x - 300, y - 300) <= 240));
    assert.ok(disc.strength < 0.2, `a disc has no straight sides: ${disc.strength}`);
  });

  it('straightens a bag with a weak mirror axis by its outline, and says how', () => {
    for (const deg of [-11, -4, 6, 12]) {
      const m = maskFrom(600, 600, turned(300, 320, deg, bag));
      const d = levelDecision(m, 'symmetry');
      assert.ok(Math.abs(d.deg + deg) <= 0.5, `rotated ${deg}, correction ${d.deg} (${d.detail})`);
      assert.equal(d.sure, true);
      assert.match(d.detail, /levelled by its straight edges .*mirror score 0\.8\d+ too weak to level by/);
    }
  });

  it('leaves a weakly symmetric shape without straight sides as shot, and says so', () => {
    // an egg with a bump on one side: no mirror axis to trust, no straight side, not long
    const egg = (u: number, v: number) => (u / 150) ** 2 + (v / 180) ** 2 <= 1 || Math.hypot(u - 140, v - 40) <= 60;
    const d = levelDecision(maskFrom(600, 600, turned(300, 300, 9, egg)), 'symmetry');
    assert.equal(d.sure, false, d.detail);
    assert.equal(d.deg, 0);
    assert.match(d.detail, /^left as shot/);
  });

  it('finds the vertical axis of symmetry of an off-centre shape', () => {
    const m = maskFrom(500, 300, tshirt(320, 150, 160, 0));
    const axis = symmetryAxis(m);
    assert.ok(Math.abs(axis.x - 320) <= 1.5, `axis ${axis.x}`);
    assert.ok(mirrorScore(m, axis.x) > 0.97);
  });
});
