// A signed-in user's generation of the test photo, as the gateway asks for one: the photo uploaded
// to the service's blob store first, then CreateGeneration naming it.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { call } from '@flatlay/platform';
import type { image } from '@flatlay/proto';
import type { BlobStore } from '@flatlay/files';

export const testPhoto = () => readFile(new URL('../fixtures/top_floor_01.jpg', import.meta.url));

export async function generateTestPhoto(
  images: image.ImageServiceClient,
  blobs: BlobStore,
  request: { userId: string; instruction?: string },
): Promise<image.CreateGenerationResponse> {
  const bytes = await testPhoto();
  const blobKey = `uploads/${randomUUID()}`;
  await blobs.put(blobKey, bytes, 'image/jpeg');
  return call(images, images.createGeneration, {
    userId: request.userId,
    anonymousEmail: '',
    enhancementType: 'tops',
    blobKey,
    contentType: 'image/jpeg',
    sizeBytes: bytes.length,
    options: undefined,
    idempotencyKey: '',
    instruction: request.instruction,
  });
}
