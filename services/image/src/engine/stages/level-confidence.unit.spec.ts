import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { decideLevel, needsSymmetry } from './level-confidence.js';

const round = { deg: 0, elongation: 1.05 }; // a shape with no long axis

describe('level confidence', () => {
  it('turns a clearly symmetric product by its mirror axis', () => {
    const d = decideLevel({ strategy: 'symmetry', symmetry: { deg: -6.75, score: 0.98 }, principal: round });
    assert.deepEqual([d.deg, d.sure], [-6.75, true]);
  });

  it('leaves a weakly symmetric product as shot when nothing confirms the angle (a bag seen three-quarter)', () => {
    // the eval's backpack: mirror score 0.93 at -15.25°, the long axis at -20.8° (past the limit)
    const d = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: -15.25, score: 0.929 },
      principal: { deg: -20.79, elongation: 1.42 },
    });
    assert.deepEqual([d.deg, d.sure], [0, false]);
    assert.match(d.detail, /-15\.3° was not applied: mirror score 0\.929/);
  });

  it('trusts a weak mirror axis that the long axis confirms', () => {
    const d = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 8, score: 0.9 },
      principal: { deg: 9.5, elongation: 1.6 },
    });
    assert.deepEqual([d.deg, d.sure], [8, true]);
    const far = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 8, score: 0.9 },
      principal: { deg: 11, elongation: 1.6 },
    });
    assert.deepEqual([far.deg, far.sure], [0, false], '3° apart is no confirmation');
    const cut = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 8, score: 0.9 },
      principal: { deg: 9.5, elongation: 1.6 },
      cutByFrame: true,
    });
    assert.deepEqual([cut.deg, cut.sure], [0, false], 'a shape cut by the frame cannot confirm itself');
    assert.match(cut.detail, /cut by the frame/);
  });

  it('does not take an angle at the search limit, however symmetric', () => {
    const d = decideLevel({ strategy: 'symmetry', symmetry: { deg: 19.5, score: 0.99 }, principal: round });
    assert.deepEqual([d.deg, d.sure], [0, false]);
    const p = decideLevel({ strategy: 'principal', symmetry: null, principal: { deg: -19.8, elongation: 3 } });
    assert.deepEqual([p.deg, p.sure], [0, false]);
  });

  it('does not turn a symmetric-type product by its long axis alone', () => {
    const d = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 3, score: 0.7 },
      principal: { deg: 12, elongation: 1.5 },
    });
    assert.deepEqual([d.deg, d.sure], [0, false]);
  });

  it('levels a profile by its long axis, and is sure of an upright or axis-less product', () => {
    const shoe = decideLevel({ strategy: 'principal', symmetry: null, principal: { deg: 7, elongation: 2.6 } });
    assert.deepEqual([shoe.deg, shoe.sure], [7, true]);
    const upright = decideLevel({ strategy: 'symmetry', symmetry: { deg: 0, score: 0.96 }, principal: round });
    assert.deepEqual([upright.deg, upright.sure], [0, true]);
    const uprightByBoth = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 0, score: 0.9 },
      principal: { deg: 1, elongation: 1.6 },
    });
    assert.deepEqual([uprightByBoth.deg, uprightByBoth.sure], [0, true]);
    const blob = decideLevel({ strategy: 'principal', symmetry: { deg: 0, score: 0.5 }, principal: round });
    assert.deepEqual([blob.deg, blob.sure], [0, true]);
    assert.equal(decideLevel({ strategy: 'none', symmetry: null, principal: round }).sure, true);
  });

  it('does not call a product level on a weak mirror axis that finds it upright', () => {
    // a backpack seen three-quarter, 8.6° askew: its best (weak) mirror axis happens to be upright
    const bag = decideLevel({ strategy: 'symmetry', symmetry: { deg: 0, score: 0.93 }, principal: round });
    assert.deepEqual([bag.deg, bag.sure], [0, false]);
    assert.match(bag.detail, /left as shot, its level unconfirmed: mirror score 0\.930 is under 0\.94/);
  });

  it('levels a weakly symmetric product by its straight edges (a bag with a side pocket)', () => {
    const bag = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 0, score: 0.86 },
      principal: { deg: -12.8, elongation: 1.36 },
      edges: { deg: 6, strength: 0.65 },
    });
    assert.deepEqual([bag.deg, bag.sure], [6, true]);
    assert.match(
      bag.detail,
      /levelled by its straight edges \(6\.0°, 65% of the outline; mirror score 0\.860 too weak/,
    );
    // no usable mirror axis at all: the edges still level it
    const box = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 2, score: 0.6 },
      principal: round,
      edges: { deg: -9, strength: 0.9 },
    });
    assert.deepEqual([box.deg, box.sure], [-9, true]);
    assert.match(box.detail, /no usable mirror axis \(score 0\.600\)/);
    const upright = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 4, score: 0.9 },
      principal: round,
      edges: { deg: 0, strength: 0.7 },
    });
    assert.deepEqual([upright.deg, upright.sure], [0, true]);
    assert.match(upright.detail, /upright by its straight edges/);
  });

  it('levels a weakly symmetric product by a clearly long axis, not by a short one', () => {
    const belt = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 1, score: 0.85 },
      principal: { deg: -7, elongation: 3.2 },
    });
    assert.deepEqual([belt.deg, belt.sure], [-7, true]);
    assert.match(belt.detail, /levelled by its long axis \(-7\.0°, 3\.2 times as long as wide/);
    const stubby = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 1, score: 0.85 },
      principal: { deg: -7, elongation: 1.5 },
    });
    assert.deepEqual([stubby.deg, stubby.sure], [0, false]);
  });

  it('leaves a product as shot, and says so, when its outline has no clear edges or long axis', () => {
    const d = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 5, score: 0.9 },
      principal: round,
      edges: { deg: -3, strength: 0.3 },
    });
    assert.deepEqual([d.deg, d.sure], [0, false]);
    assert.match(d.detail, /^left as shot: a rotation of 5\.0° was not applied/);
    // a side cut straight by the photo's frame is no edge of the product's own
    const cut = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 5, score: 0.9 },
      principal: { deg: 5, elongation: 2.5 },
      edges: { deg: 0, strength: 0.9 },
      cutByFrame: true,
    });
    assert.deepEqual([cut.deg, cut.sure], [0, false]);
    // straight edges at the search limit are no answer either
    const limit = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 5, score: 0.9 },
      principal: round,
      edges: { deg: 19.5, strength: 0.9 },
    });
    assert.deepEqual([limit.deg, limit.sure], [0, false]);
  });

  it("keeps a sure mirror axis over the outline's edges", () => {
    const d = decideLevel({
      strategy: 'symmetry',
      symmetry: { deg: 4, score: 0.97 },
      principal: round,
      edges: { deg: 0, strength: 0.9 },
    });
    assert.deepEqual([d.deg, d.sure], [4, true]);
  });

  it('asks for the symmetry search only where it is used', () => {
    assert.equal(needsSymmetry('symmetry', { deg: 3, elongation: 3 }), true);
    assert.equal(needsSymmetry('principal', { deg: 3, elongation: 3 }), false);
    assert.equal(needsSymmetry('principal', round), true);
    assert.equal(needsSymmetry('none', round), false);
  });
});
