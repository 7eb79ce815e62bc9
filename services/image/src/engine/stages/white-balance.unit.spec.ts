import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { Mask, RawImage } from '../types.js';
import {
  applyGains,
  awayFromOutline,
  BOUNDARY,
  CORRECTION,
  estimateCorrection,
  estimateGains,
  FLOOR,
  greyEdgeGains,
  INSIDE,
  sampleRegions,
} from './white-balance.js';

/** A neutral scene: greys of many levels with some coloured patches that average out, none near white. */
function neutralScene(): RawImage {
  const w = 64,
    h = 64,
    data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3,
        v = 40 + ((x * 3 + y * 2) % 130); // below the near-white range even under the casts below
      const tint = ((x >> 3) + (y >> 3)) % 3;
      data[k] = v + (tint === 0 ? 20 : tint === 1 ? -10 : -10);
      data[k + 1] = v + (tint === 1 ? 20 : tint === 2 ? -10 : -10);
      data[k + 2] = v + (tint === 2 ? 20 : tint === 0 ? -10 : -10);
    }
  return { data, width: w, height: h, channels: 3 };
}

describe('white balance', () => {
  it('leaves a neutral scene nearly untouched', () => {
    const g = estimateGains(neutralScene());
    for (const v of g) assert.ok(Math.abs(v - 1) < 0.03, String(g));
  });

  it('estimates the full correction of a known warm colour cast', () => {
    const scene = neutralScene();
    const cast = applyGains(scene, [1.12, 1, 0.88]);
    const gains = estimateCorrection(cast);
    const fixed = applyGains(cast, gains);
    const mean = (img: RawImage, c: number) => {
      let s = 0;
      for (let i = c; i < img.data.length; i += 3) s += img.data[i]!;
      return s / (img.data.length / 3);
    };
    const before = mean(cast, 0) / mean(cast, 2),
      after = mean(fixed, 0) / mean(fixed, 2);
    const truth = mean(scene, 0) / mean(scene, 2);
    assert.ok(Math.abs(before - truth) > 0.2, `cast present: ${before} vs ${truth}`);
    assert.ok(Math.abs(after - truth) < 0.04, `cast removed: ${after} vs ${truth}`);
  });

  it('leaves a flat single-colour scene alone: no edges to judge by', () => {
    const data = Buffer.alloc(32 * 32 * 3);
    for (let i = 0; i < data.length; i += 3) {
      data[i] = 200;
      data[i + 1] = 40;
      data[i + 2] = 40;
    }
    assert.deepEqual(estimateGains({ data, width: 32, height: 32, channels: 3 }), [1, 1, 1]);
  });

  it('clamps the correction of an extreme cast to 20% per channel', () => {
    const cast = applyGains(neutralScene(), [1, 1, 0.4]);
    const gains = estimateGains(cast);
    assert.ok(gains[2] / gains[0] <= 1.2 * 1.2 + 1e-9, String(gains));
    assert.ok(gains[2] > gains[0], 'still corrects towards neutral');
  });

  it('applies only part of the estimated correction', () => {
    const cast = applyGains(neutralScene(), [1.12, 1, 0.88]);
    const full = estimateCorrection(cast),
      applied = estimateGains(cast);
    const ratio = (g: number[]) => Math.log(g[2]! / g[0]!);
    assert.ok(ratio(full) > 0.1, String(full));
    assert.ok(Math.abs(ratio(applied) - CORRECTION * ratio(full)) < 1e-9, `${applied} vs ${full}`);
  });

  it('leaves out the band across the product outline: two materials side by side are not a light', () => {
    // a flat blue product on a grey floor with brightness-only texture, under neutral light: the
    // only coloured edges are the outline's, where the blue channel changes most
    const w = 96,
      h = 96,
      data = Buffer.alloc(w * h * 3);
    const product: Mask = { data: new Uint8Array(w * h), width: w, height: h };
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const p = y * w + x,
          inside = x >= 24 && x < 72 && y >= 24 && y < 72;
        const grey = 140 + 10 * (((x * 7 + y * 13) % 11) / 10);
        const colour = inside ? [60, 90, 200] : [grey, grey, grey];
        for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.round(colour[c]!);
        product.data[p] = inside ? 255 : 0;
      }
    const scene = { data, width: w, height: h, channels: 3 as const };
    const regions = sampleRegions(scene, product);
    const blind = greyEdgeGains(scene)!,
      seeing = greyEdgeGains(scene, awayFromOutline(regions))!;
    const cast = (g: number[]) => Math.max(...g.map((v) => Math.abs(Math.log(v))));
    assert.ok(cast(blind) > 0.05, `the outline's edges read as a light: ${blind}`);
    assert.ok(cast(seeing) < 0.01, `without them the floor's edges say neutral: ${seeing}`);
  });

  it('takes a floor that looks nearly grey to be grey, and leaves one that looks coloured', () => {
    const w = 64,
      h = 64;
    const product: Mask = { data: new Uint8Array(w * h), width: w, height: h };
    for (let y = 20; y < 44; y++) for (let x = 20; x < 44; x++) product.data[y * w + x] = 255;
    const sceneOn = (floor: number[]) => {
      const data = Buffer.alloc(w * h * 3);
      for (let p = 0; p < w * h; p++) {
        const shade = 0.8 + (0.2 * ((p * 7919) % 13)) / 12;
        // the product: a saturated red whose folds would pull an edge estimate towards red
        const colour = product.data[p] ? [200, 60, 50] : floor;
        for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.round(colour[c]! * shade);
      }
      return { data, width: w, height: h, channels: 3 as const };
    };
    // concrete under a slightly warm light: made exactly grey
    const warm = [1.05, 1, 0.95];
    const concrete = sceneOn([170 * warm[0]!, 170, 170 * warm[2]!]);
    const floorCast = (g: number[]) => Math.abs(Math.log((170 * warm[0]! * g[0]!) / (170 * warm[2]! * g[2]!)));
    const regions = sampleRegions(concrete, product);
    const edgesOnly = greyEdgeGains(concrete, awayFromOutline(regions))!;
    const g = estimateCorrection(concrete, product);
    assert.ok(floorCast(edgesOnly) > 0.05, `the red product's folds pull the edges: ${edgesOnly}`);
    assert.ok(floorCast(g) < 0.03, `the grey floor sets the light right: ${g}`);
    // a beige carpet whose fibres' shadows are neutral (as real carpets' edges measured) keeps its
    // colour: it still looks coloured after the edge estimate, so the floor rule leaves it
    const data = Buffer.alloc(w * h * 3);
    for (let p = 0; p < w * h; p++) {
      const fibre = 30 * (((p * 7919) % 13) / 12) - 15; // the same for every channel: neutral edges
      const colour = product.data[p] ? [128, 128, 128] : [193, 162, 121];
      for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.round(colour[c]! + fibre);
    }
    const carpet = { data, width: w, height: h, channels: 3 as const };
    const c = estimateCorrection(carpet, product);
    assert.ok((193 * c[0]) / (121 * c[2]) > 1.3, `still beige: ${c}`);
  });

  it('maps the product to the scene sample: inside, boundary band, floor', () => {
    const product: Mask = { data: new Uint8Array(200 * 200), width: 200, height: 200 };
    for (let y = 50; y < 150; y++) for (let x = 50; x < 150; x++) product.data[y * 200 + x] = 255;
    const regions = sampleRegions({ data: Buffer.alloc(100 * 100 * 3), width: 100, height: 100, channels: 3 }, product);
    assert.equal(regions[50 * 100 + 50], INSIDE);
    assert.equal(regions[50 * 100 + 25], BOUNDARY);
    assert.equal(regions[50 * 100 + 10], FLOOR);
  });
});
