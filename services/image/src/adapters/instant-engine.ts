// The engine's stand-in (IMAGE_ENGINE=instant): the photo itself, upright on white, as result,
// preview and thumbnail, in milliseconds. For tests of the product around the engine (browser
// journeys, payments on the embedded default) whose subject is not the engine's CPU time: with
// the real engine a busy machine turns one generation into minutes. Never in production.
import sharp from 'sharp';
import type { EnhanceResult } from '../engine/pipeline.js';
import type { EnhanceEngine } from '../app/generation-worker.js';

const PREVIEW_SIDE = 512;
const THUMBNAIL_SIDE = 256;

export const instantEngine: EnhanceEngine = {
  async enhance(input) {
    const upright = sharp(input, { failOn: 'error' }).rotate().flatten({ background: '#ffffff' });
    const full = await upright.clone().jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true });
    const smaller = (side: number) =>
      upright.clone().resize(side, side, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
    const [preview, thumbnail] = await Promise.all([smaller(PREVIEW_SIDE), smaller(THUMBNAIL_SIDE)]);
    const { width, height } = full.info;
    return {
      full: full.data,
      preview,
      thumbnail,
      width,
      height,
      format: 'jpeg',
      checks: [],
      timings: {},
      geometry: {
        recipe: 'instant',
        workingWidth: width,
        workingHeight: height,
        cutRegion: { x: 0, y: 0, width, height },
        segmentWindow: null,
        secondLook: false,
        rotationDeg: 0,
        gains: [1, 1, 1],
        layout: undefined,
        mask: null,
      },
    } as unknown as EnhanceResult;
  },
  async close() {},
};
