import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { maskFrom } from '../../src/engine/testing/fixtures.js';
import { srgbToLab } from './color.js';
import { edgeFringe, type MaskedImage, outlineBands } from './metrics.js';

/**
 * A synthetic composite with known truth: a grey product (a square, with a 2 px darker seam along
 * its edge, as garments have) and results made from it: as it should be, with a rim of a red
 * floor kept along its outline, with a cast over the whole product, and with a lighter edge.
 */
const SIZE = 200;
const [L0, L1] = [60, 140]; // the product square's sides
const square = maskFrom(SIZE, SIZE, (x, y) => x >= L0 && x < L1 && y >= L0 && y < L1);
/** Distance in pixels from the square's edge, inward (0 on the outermost row of product pixels). */
const depth = (x: number, y: number) => Math.min(x - L0, L1 - 1 - x, y - L0, L1 - 1 - y);

function image(colour: (x: number, y: number, d: number) => [number, number, number]): MaskedImage {
  const data = Buffer.alloc(SIZE * SIZE * 3, 255); // white canvas
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      if (!square.data[y * SIZE + x]) continue;
      data.set(colour(x, y, depth(x, y)), (y * SIZE + x) * 3);
    }
  return { data, channels: 3, mask: square };
}

const grey = (d: number): [number, number, number] => (d < 2 ? [120, 120, 120] : [150, 150, 150]);
const truth = image((_x, _y, d) => grey(d));
const RED: [number, number, number] = [220, 30, 30];
const mix = (a: number[], b: number[], t: number) =>
  a.map((v, i) => Math.round(v * (1 - t) + b[i]! * t)) as [number, number, number];

describe('edge fringe (eval metric)', () => {
  it('takes a band of 1% of the product, at least 2 px, inside the outline', () => {
    const { band, interior, bandPx } = outlineBands(square);
    assert.equal(bandPx, 2, '1% of 80 px rounds below 2');
    assert.equal(band[L0 * SIZE + L0], 255, 'the corner is in the band');
    assert.equal(band[(L0 + 2) * SIZE + L0 + 2], 0, '2 px in is past it');
    assert.equal(band[(L0 - 1) * SIZE + L0], 0, 'outside the product is not');
    assert.equal(interior[(L0 + 5) * SIZE + L0 + 5], 0, 'the interior starts 6 px in');
    assert.equal(interior[(L0 + 6) * SIZE + L0 + 6], 255);
    assert.equal(outlineBands(square, 5).bandPx, 5);
  });

  it('is near 0 for a result that keeps the product as it is, seam included', () => {
    assert.ok(
      edgeFringe(
        image((_x, _y, d) => grey(d)),
        truth,
      )! < 0.01,
    );
  });

  it('shows a rim of the old red floor along the outline', () => {
    const rim = edgeFringe(
      image((_x, _y, d) => (d < 2 ? mix(grey(d), RED, 0.6) : grey(d))),
      truth,
    )!;
    assert.ok(rim > 20, `red rim: ${rim}`);
    const faint = edgeFringe(
      image((_x, _y, d) => (d < 2 ? mix(grey(d), RED, 0.15) : grey(d))),
      truth,
    )!;
    assert.ok(faint > 3 && faint < rim, `a fainter rim counts less: ${faint}`);
  });

  it('leaves a cast over the whole product to the colour error', () => {
    const cast = (c: [number, number, number]): [number, number, number] => [
      Math.min(255, Math.round(c[0] * 1.08)),
      c[1],
      Math.round(c[2] * 0.9),
    ];
    const castFringe = edgeFringe(
      image((_x, _y, d) => cast(grey(d))),
      truth,
    )!;
    // the cast itself is several times larger: it is the colour error's to measure
    const [a, b] = [srgbToLab(150, 150, 150), srgbToLab(...cast([150, 150, 150]))];
    const shift = Math.hypot(a[1] - b[1], a[2] - b[2]);
    assert.ok(castFringe < 2 && castFringe < shift / 4, `cast: fringe ${castFringe}, the cast ${shift}`);
  });

  it('leaves lightness at the edge out: a soft or short edge against white is not a colour fringe', () => {
    const light = edgeFringe(
      image((_x, _y, d) => (d < 1 ? [235, 235, 235] : grey(d))),
      truth,
    )!;
    assert.ok(light < 0.5, `grey product, lighter edge: ${light}`);
  });

  it('has nothing to say without an interior', () => {
    const thin = maskFrom(SIZE, SIZE, (x, y) => x >= 10 && x < 13 && y >= 10 && y < 190);
    const img = { data: Buffer.alloc(SIZE * SIZE * 3, 128), channels: 3, mask: thin };
    assert.equal(edgeFringe(img, truth), null);
  });
});
