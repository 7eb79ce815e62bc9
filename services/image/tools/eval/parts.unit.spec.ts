import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { alongCurve, bezier, drawChain, drawPart, medianColour, strokeCurve } from './parts.js';
import { type Layer, maskBox, type Point } from './props.js';

const count = (mask: Uint8Array) => mask.reduce((n, v) => n + (v ? 1 : 0), 0);
const blank = (width: number, height: number): Layer => ({ data: new Uint8Array(width * height * 4), width, height });
const straight = (from: Point, to: Point): [Point, Point, Point, Point] => [
  from,
  [from[0] + (to[0] - from[0]) / 3, from[1] + (to[1] - from[1]) / 3],
  [from[0] + (2 * (to[0] - from[0])) / 3, from[1] + (2 * (to[1] - from[1])) / 3],
  to,
];

/** A garment on a layer with room round it: a filled rectangle, its colour (120, 80, 60). */
function garment(width: number, height: number, box: { left: number; top: number; right: number; bottom: number }) {
  const layer = blank(width, height);
  const mask = new Uint8Array(width * height);
  for (let y = box.top; y <= box.bottom; y++)
    for (let x = box.left; x <= box.right; x++) {
      const p = y * width + x;
      layer.data.set([120, 80, 60, 255], p * 4);
      mask[p] = 255;
    }
  return { layer, mask };
}

describe('the curves a part follows', () => {
  it('starts and ends a Bézier curve at its end points', () => {
    const curve: [Point, Point, Point, Point] = [
      [0, 0],
      [10, 40],
      [50, 40],
      [60, 0],
    ];
    assert.deepEqual(bezier(curve, 0), [0, 0]);
    assert.deepEqual(bezier(curve, 1), [60, 0]);
  });

  it('spaces points evenly along a straight curve, with its direction', () => {
    const points = alongCurve(straight([0, 0], [100, 0]), 10);
    assert.equal(points.length, 11);
    points.forEach(({ at, tangent }, i) => {
      assert.ok(Math.abs(at[0] - 10 * i) < 0.5, `point ${i} at ${at[0]}`);
      assert.deepEqual(tangent, [1, 0]);
    });
  });
});

describe('strokeCurve: a cord or a strap painted along a curve', () => {
  it('paints a band of the given half-width, darker at a round cord’s sides than at its middle', () => {
    const layer = blank(100, 40);
    const painted = strokeCurve(layer, straight([20, 20], [80, 20]), 5, () => [200, 200, 200], 'round');
    // each column inside the run holds the band's 10 rows, nothing far from it
    for (const x of [30, 50, 70]) {
      let rows = 0;
      for (let y = 0; y < 40; y++) rows += painted[y * 100 + x] ? 1 : 0;
      assert.equal(rows, 10, `column ${x}`);
    }
    assert.equal(painted[2 * 100 + 50], 0);
    const middle = layer.data[(20 * 100 + 50) * 4]!,
      side = layer.data[(16 * 100 + 50) * 4]!;
    assert.ok(middle > side, `middle ${middle}, side ${side}`);
    assert.equal(layer.data[(20 * 100 + 50) * 4 + 3], 255);
  });

  it('colours the cord by where along it a pixel lies (an aglet at its end)', () => {
    const layer = blank(100, 20);
    strokeCurve(
      layer,
      straight([5, 10], [95, 10]),
      3,
      (along) => (along > 0.9 ? [10, 10, 10] : [250, 250, 250]),
      'flat',
    );
    assert.ok(layer.data[(10 * 100 + 20) * 4]! > 200);
    assert.ok(layer.data[(10 * 100 + 94) * 4]! < 20);
  });
});

describe('drawChain: metal links', () => {
  it('leaves the floor showing through the face-up links (a chain is not a solid band)', () => {
    const layer = blank(200, 60);
    const painted = drawChain(layer, straight([10, 30], [190, 30]), 20, [210, 180, 90]);
    // the links' box spans the run, yet much of it is holes and gaps
    const box = maskBox(painted, 200, 60)!;
    const area = (box.right - box.left + 1) * (box.bottom - box.top + 1);
    assert.ok(box.right - box.left > 170);
    assert.ok(count(painted) < 0.6 * area, `${count(painted)} of ${area}`);
    // the first link faces up: its centre is a hole
    assert.equal(painted[30 * 200 + 10], 0);
    assert.equal(painted[30 * 200 + 10 + 12 - 1], 255); // its wire, at the ring's far end
  });
});

describe('drawPart: the product’s own parts', () => {
  const W = 300,
    H = 300,
    box = { left: 100, top: 100, right: 199, bottom: 199 };

  it('hangs a top’s drawstrings past its hem', () => {
    const { layer, mask } = garment(W, H, box);
    const part = drawPart(layer, mask, box, 'drawstrings', 'white');
    const outside = part.filter((v, p) => v && !mask[p]);
    assert.ok(outside.length > 50, `${outside.length} pixels past the hem`);
    const reach = maskBox(part, W, H)!;
    assert.ok(reach.bottom > box.bottom + 10 && reach.bottom < box.bottom + 30, `ends at ${reach.bottom}`);
    // white cords, their aglets dark
    let light = 0,
      dark = 0;
    part.forEach((v, p) => {
      if (!v) return;
      if (layer.data[p * 4]! > 180) light++;
      else if (layer.data[p * 4]! < 70) dark++;
    });
    assert.ok(light > dark && dark > 0, `light ${light}, dark ${dark}`);
  });

  it('lays trousers’ waist cords out above the waistband', () => {
    const { layer, mask } = garment(W, H, box);
    const part = drawPart(layer, mask, box, 'waist-cords', 'garment');
    const reach = maskBox(part, W, H)!;
    assert.ok(reach.top < box.top - 5, `reaches up to ${reach.top}`);
  });

  it('loops a bag’s strap above it, the floor inside the loop left out', () => {
    const { layer, mask } = garment(W, H, box);
    const part = drawPart(layer, mask, box, 'strap', 'garment');
    const reach = maskBox(part, W, H)!;
    assert.ok(reach.top < box.top - 20, `reaches up to ${reach.top}`);
    // between the strap's two ends, above the bag: floor
    assert.equal(part[(box.top - 8) * W + 150], 0);
    // a strap darker than the bag
    const p = reach.top * W + 150;
    const q = (reach.top + 2) * W + 150;
    assert.ok(part[p] || part[q]);
    assert.ok(layer.data[(part[p] ? p : q) * 4]! < 120);
  });

  it('reads the garment’s own colour as the median of its pixels', () => {
    const { layer, mask } = garment(W, H, box);
    assert.deepEqual(medianColour(layer, mask), [120, 80, 60]);
  });
});
