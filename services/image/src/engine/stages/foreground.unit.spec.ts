import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { applyEdgeForeground, boxBlur, decontaminateEdges, edgeForeground, estimateForeground } from './foreground.js';

/**
 * The red-rim case: a grey garment on a red carpet, its edge a soft ramp of alpha over 8 px, the
 * photo's edge pixels a mix of the two (I = alpha F + (1 - alpha) B). Cut out as they are and put
 * on white, those pixels make a red rim; with the foreground estimated, they should not.
 */
const W = 96,
  H = 48;
const GREY = [130, 130, 130];
const RED = [220, 30, 30];
const alphaAt = (x: number) => Math.min(1, Math.max(0, (x - 44) / 8)); // 0 left of 44, 1 right of 52

function scene(grey = GREY) {
  const rgb = new Uint8Array(W * H * 3);
  const alpha = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const a = Math.round(255 * alphaAt(x)) / 255;
      alpha[p] = Math.round(255 * a);
      for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.round(a * grey[c]! + (1 - a) * RED[c]!);
    }
  return { rgb, alpha };
}

/**
 * Largest error over the unsure pixels as it shows on a canvas: alpha times the distance (RGB)
 * of the pixel's colour from the true grey (what alpha F + (1 - alpha) white is off by).
 */
function worstInBand(f: Uint8Array, alpha: Uint8Array, grey = GREY): number {
  let worst = 0;
  for (let p = 0; p < alpha.length; p++) {
    if (alpha[p] === 0 || alpha[p] === 255) continue;
    const d = Math.hypot(f[p * 3]! - grey[0]!, f[p * 3 + 1]! - grey[1]!, f[p * 3 + 2]! - grey[2]!);
    worst = Math.max(worst, (alpha[p]! / 255) * d);
  }
  return worst;
}

const toRgba = (rgb: Uint8Array, alpha: Uint8Array, width = W, height = H) => {
  const data = new Uint8Array(alpha.length * 4);
  for (let p = 0; p < alpha.length; p++) {
    data.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    data[p * 4 + 3] = alpha[p]!;
  }
  return { data, width, height, channels: 4 };
};
const toRgb = (rgba: Uint8Array) => {
  const out = new Uint8Array((rgba.length / 4) * 3);
  for (let p = 0; p < rgba.length / 4; p++) out.set(rgba.subarray(p * 4, p * 4 + 3), p * 3);
  return out;
};

describe('foreground estimation (blur-fusion)', () => {
  it('takes the red carpet out of the garment edge', () => {
    const { rgb, alpha } = scene();
    const f = estimateForeground(rgb, alpha, W, H, { radii: [30, 3] });
    const before = worstInBand(rgb, alpha);
    const after = worstInBand(f, alpha);
    assert.ok(before > 30, `the photo's edge carries the red: ${before}`);
    assert.ok(after < 6 && after < before / 5, `estimated edge close to the grey: ${after} (was ${before})`);
    // on a white canvas the rim is gone: composite alpha F + (1 - alpha) white has no red excess
    for (let x = 45; x < 52; x++) {
      const p = (H / 2) * W + x;
      const a = alpha[p]! / 255;
      const red = a * f[p * 3]! + (1 - a) * 255;
      const green = a * f[p * 3 + 1]! + (1 - a) * 255;
      assert.ok(red - green < 8, `x ${x}: red ${red.toFixed(0)} against green ${green.toFixed(0)}`);
    }
  });

  it('keeps the sure pixels as they are', () => {
    const { rgb, alpha } = scene([40, 90, 200]);
    const f = estimateForeground(rgb, alpha, W, H, { radii: [30, 3] });
    for (let p = 0; p < alpha.length; p++)
      if (alpha[p] === 0 || alpha[p] === 255) for (let c = 0; c < 3; c++) assert.equal(f[p * 3 + c], rgb[p * 3 + c]);
    const blue = worstInBand(f, alpha, [40, 90, 200]);
    assert.ok(blue < 8 && blue < worstInBand(rgb, alpha, [40, 90, 200]) / 5, `a blue garment too: ${blue}`);
  });

  it('runs the same two passes in place on an RGBA cut-out, only where alpha is unsure', () => {
    const { rgb, alpha } = scene();
    const rgba = toRgba(rgb, alpha);
    const changed = decontaminateEdges(rgba, { radii: [30, 3] });
    assert.equal(changed, alpha.filter((a) => a > 0 && a < 255).length);
    const f = toRgb(rgba.data);
    const before = worstInBand(rgb, alpha);
    const after = worstInBand(f, alpha);
    assert.ok(after < 6 && after < before / 5, `estimated edge close to the grey: ${after} (was ${before})`);
    for (let p = 0; p < alpha.length; p++) {
      assert.equal(rgba.data[p * 4 + 3], alpha[p]);
      if (alpha[p] === 0 || alpha[p] === 255) for (let c = 0; c < 3; c++) assert.equal(f[p * 3 + c], rgb[p * 3 + c]);
    }
  });

  it("agrees with the paper's dense passes on a disc with a soft edge (block means, not exact boxes)", () => {
    // a blue disc on an orange floor, 400 x 300, its edge a 6 px ramp: the block-sum wide pass
    // must land within a few levels of the dense reference
    const w = 400,
      h = 300;
    const rgb = new Uint8Array(w * h * 3),
      alpha = new Uint8Array(w * h);
    const F = [40, 90, 200],
      B = [230, 140, 40];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        const d = Math.hypot(x - 200, y - 150);
        const a = Math.round(255 * Math.min(1, Math.max(0, (100 - d) / 6))) / 255;
        alpha[p] = Math.round(255 * a);
        for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.round(a * F[c]! + (1 - a) * B[c]!);
      }
    const dense = estimateForeground(rgb, alpha, w, h);
    const rgba = toRgba(rgb, alpha, w, h);
    decontaminateEdges(rgba);
    const fast = toRgb(rgba.data);
    let worst = 0;
    for (let p = 0; p < alpha.length; p++)
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(fast[p * 3 + c]! - dense[p * 3 + c]!));
    assert.ok(worst <= 6, `largest difference from the dense passes: ${worst}`);
    assert.ok(worstInBand(fast, alpha, F) < worstInBand(rgb, alpha, F) / 5, 'the orange is out of the blue edge');
  });

  it('works the colours out without touching the cut-out, and writes what decontaminateEdges writes', () => {
    // the pipeline has libvips read the cut-out while the colours are worked out (pipeline.ts)
    const { rgb, alpha } = scene();
    const rgba = toRgba(rgb, alpha);
    const untouched = rgba.data.slice();
    const edge = edgeForeground(rgba, { radii: [30, 3] });
    assert.deepEqual(rgba.data, untouched);
    assert.equal(edge.count, alpha.filter((a) => a > 0 && a < 255).length);
    assert.equal(edge.rgb.length, edge.count * 3);
    applyEdgeForeground(rgba, edge);
    const inPlace = toRgba(rgb, alpha);
    decontaminateEdges(inPlace, { radii: [30, 3] });
    assert.deepEqual(rgba.data, inPlace.data);
    assert.notDeepEqual(rgba.data, untouched);
  });

  it('leaves a cut-out with no unsure pixel as it is', () => {
    const data = new Uint8Array(8 * 8 * 4).map((_, i) => (i % 4 === 3 ? (i < 128 ? 255 : 0) : i % 251));
    const copy = data.slice();
    assert.equal(decontaminateEdges({ data, width: 8, height: 8, channels: 4 }), 0);
    assert.deepEqual(data, copy);
  });

  it('blurs with a box clipped at the edges', () => {
    const src = Float32Array.from([0, 0, 9, 0, 0, 3]);
    assert.deepEqual(Array.from(boxBlur(src, 6, 1, 1)), [0, 3, 3, 3, 1, 1.5]);
    const column = boxBlur(Float32Array.from([4, 0, 0, 8]), 1, 4, 1);
    assert.deepEqual(Array.from(column), [2, 4 / 3, 8 / 3, 4].map(Math.fround));
  });
});
