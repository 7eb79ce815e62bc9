// The model-backed engine's stand-in for tests of the service around it: a small real JPEG as
// result, preview and thumbnail, at once (the engine itself has its own tests).
import sharp from 'sharp';
import type { EnhanceEngine } from '../../src/app/generation-worker.js';

export const instantEngine: EnhanceEngine = {
  async enhance() {
    const full = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    return { full, preview: full, thumbnail: full, width: 80, height: 60, format: 'jpeg' } as never;
  },
  async close() {},
};
