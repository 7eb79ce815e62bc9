// The shapes of /api/images answers, with the field names of the spec's data shapes; the image
// service's messages become them by toApi (the schema is the one declaration of each field). Every URL is a signed, expiring file URL
// (null when there is nothing the caller may see); a locked result's full file has none.
import { z } from 'zod';
import type { image } from '@flatlay/proto';
import { MAIN_TYPES, SUB_TYPES } from '@flatlay/files';
import { toApi } from '../api/api-view.js';

const signedUrl = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${description}; a signed URL that expires (null: none)` });

export const ENHANCEMENT_TYPES = [...MAIN_TYPES, ...Object.values(SUB_TYPES).flat()] as [string, ...string[]];

export const ImageBody = z
  .object({
    id: z.uuid(),
    image_id: z.uuid().meta({ description: 'The same as id' }),
    status: z.enum(['processing', 'completed', 'failed']),
    original_url: signedUrl('The uploaded photo'),
    processed_url: signedUrl('The full result; null while processing, when failed, and while locked'),
    preview_url: signedUrl('The watermarked preview, once completed'),
    image_url: signedUrl('The best the caller may see: the full result when unlocked, else the preview'),
    is_locked: z.boolean(),
    createdAt: z.iso.datetime().nullable(),
    enhancement_type: z
      .string()
      .meta({ description: 'What was asked for: a main type, or a sub-type (subscribers may choose any)' }),
  })
  .meta({
    id: 'Image',
    example: {
      id: '0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11',
      image_id: '0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11',
      status: 'completed',
      original_url: '/files/uploads/1c0f.. ?expires=1767225600&signature=...',
      processed_url: '/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/result.jpg?expires=1767225600&signature=...',
      preview_url: '/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/preview.jpg?expires=1767225600&signature=...',
      image_url: '/files/images/0b8f3c52-7f0e-4a57-9a43-3f8d2b8c1e11/result.jpg?expires=1767225600&signature=...',
      is_locked: false,
      createdAt: '2025-01-31T09:30:00.000Z',
      enhancement_type: 'tops',
    },
  });

export type ImageJson = z.infer<typeof ImageBody>;

/** The image message as ImageBody reads it: `id` is the image's id too. */
export const imageView = (img: image.Image) => ({ ...img, id: img.imageId });

export function imageJson(img: image.Image | undefined): ImageJson {
  if (!img) throw new Error('the image service answered without an image');
  return toApi(ImageBody, imageView(img));
}

export const GenerationBody = z
  .object({
    success: z.literal(true),
    id: z.uuid(),
    image_id: z.uuid(),
    enhancement_id: z.uuid().meta({ description: 'The same as image_id' }),
    status: z.literal('processing'),
    tokensUsed: z.number().int().meta({ description: 'Tokens taken now (0 when locked or on an unlimited plan)' }),
    newBalance: z.number().int().nullable().meta({ description: 'The balance after the charge' }),
    is_locked: z.boolean().meta({ description: 'Too few tokens: the result is made but locked until unlocked' }),
    locked: z.boolean().meta({ description: 'The same as is_locked' }),
    preview_url: signedUrl('The watermarked preview (null until the result is ready: poll the status)'),
    image_url: signedUrl('The best the caller may see once ready'),
    image: ImageBody,
  })
  .meta({ id: 'Generation' });

export function generationJson(g: image.CreateGenerationResponse) {
  const img = imageJson(g.image);
  // The aliases the spec keeps (enhancement_id, is_locked, the image's own URLs at the top).
  return toApi(GenerationBody, {
    ...g,
    success: true,
    id: g.imageId,
    enhancementId: g.imageId,
    status: 'processing',
    newBalance: g.newBalance,
    isLocked: g.locked,
    previewUrl: img.preview_url,
    imageUrl: img.image_url,
    image: imageView(g.image as image.Image),
  });
}

export const StatusBody = z
  .object({
    status: z.enum(['processing', 'completed', 'failed']),
    processed_url: signedUrl('The full result (null while processing, failed or locked)'),
    preview_url: signedUrl('The watermarked preview, once completed'),
    is_locked: z.boolean(),
    error: z.string().nullable().meta({ description: 'Why the enhancement failed; null otherwise' }),
  })
  .extend(ImageBody.shape)
  .meta({ id: 'ImageStatus' });

export const AnonymousStatusBody = z
  .object({
    enhancement_id: z.uuid(),
    status: z.enum(['processing', 'pending_payment', 'completed', 'failed']).meta({
      description:
        'processing (still generating), pending_payment (ready, locked: both URLs are the watermarked preview), completed (paid or claimed), failed',
    }),
    is_paid: z.boolean(),
    original_url: signedUrl('The uploaded photo'),
    processed_url: signedUrl('The full result once paid; before payment the watermarked preview'),
    preview_url: signedUrl('The watermarked preview, once ready'),
  })
  .meta({ id: 'AnonymousEnhancement' });

export function anonymousJson(a: image.GetAnonymousStatusResponse): z.infer<typeof AnonymousStatusBody> {
  // Before payment the full file has no URL: the client shows what processed_url points at,
  // so it points at the watermarked preview (ADR 0102).
  return toApi(AnonymousStatusBody, { ...a, processedUrl: a.processedUrl || a.previewUrl });
}
