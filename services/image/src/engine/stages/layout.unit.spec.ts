import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { resolveRecipe } from '../recipes/index.js';
import { planCrop, planCutout } from './layout.js';

describe('layout', () => {
  it('centres a product on its axis of symmetry, not its box', () => {
    // box 100..300 but the axis sits at 220 (an asymmetric extra on the left)
    const l = planCutout(
      { box: { left: 100, top: 50, right: 300, bottom: 450 }, axisX: 220, parts: [] },
      resolveRecipe('tops'),
      1000,
    );
    const p = l.placements[0]!;
    const s = p.width / 200;
    assert.ok(Math.abs(p.left + (220 - 100) * s - l.canvasWidth / 2) <= 1);
    assert.equal(l.canvasHeight, 1000);
    assert.equal(l.canvasWidth, 800);
  });

  it('keeps the margins of the recipe', () => {
    const r = resolveRecipe('tops');
    const l = planCutout({ box: { left: 0, top: 0, right: 400, bottom: 400 }, axisX: 200, parts: [] }, r, 1000);
    const p = l.placements[0]!;
    assert.ok(p.left >= Math.floor(r.margin * l.canvasWidth) - 1);
    assert.ok(p.top >= Math.floor(r.margin * l.canvasHeight) - 1);
  });

  it('sets a pair of shoes side by side on one baseline', () => {
    const parts = [
      { left: 500, top: 100, right: 800, bottom: 260 },
      { left: 50, top: 200, right: 350, bottom: 380 },
    ];
    const l = planCutout(
      { box: { left: 50, top: 100, right: 800, bottom: 380 }, axisX: 425, parts },
      resolveRecipe('two_shoe'),
      1200,
    );
    assert.equal(l.placements.length, 2);
    const [a, b] = l.placements as [(typeof l.placements)[0], (typeof l.placements)[0]];
    assert.equal(a.top + a.height, b.top + b.height, 'same baseline');
    assert.ok(a.left + a.width < b.left, 'side by side, with a gap');
    const centre = (l.productBox.left + l.productBox.right) / 2;
    assert.ok(Math.abs(centre - l.canvasWidth / 2) <= 1);
  });

  it('crops a close-up around its subject at the canvas ratio, inside the photo', () => {
    const l = planCrop({ left: 900, top: 100, right: 1000, bottom: 300 }, 1000, 800, resolveRecipe('logo_detail'), 512);
    const r = l.placements[0]!.region;
    assert.ok(r.right <= 1000 && r.left >= 0 && r.top >= 0 && r.bottom <= 800);
    assert.ok(Math.abs((r.right - r.left) / (r.bottom - r.top) - 1) < 0.02);
    assert.ok(r.left <= 900 && r.right >= 1000);
  });
});
