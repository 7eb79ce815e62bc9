import assert from 'node:assert/strict';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { instantEngine } from './instant-engine.js';

describe('the instant engine stand-in', () => {
  it('answers the photo at full size as the result, with a preview and thumbnail within their sides', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const result = await instantEngine.enhance(photo);
    assert.deepEqual([result.width, result.height, result.format], [1200, 800, 'jpeg']);
    const [full, preview, thumbnail] = await Promise.all(
      [result.full, result.preview, result.thumbnail].map((b) => sharp(b).metadata()),
    );
    assert.deepEqual([full!.width, full!.height, full!.format], [1200, 800, 'jpeg']);
    assert.deepEqual([preview!.width, preview!.height], [512, 341]);
    assert.deepEqual([thumbnail!.width, thumbnail!.height], [256, 171]);
  });

  it('refuses bytes that are not an image, as the engine does', async () => {
    await assert.rejects(instantEngine.enhance(Buffer.from('not an image')));
  });
});
