import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
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

describe('straighten', () => {
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
