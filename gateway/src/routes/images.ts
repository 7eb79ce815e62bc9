import type { Request } from 'express';
import { z } from 'zod';
import { AppError, call, type Logger } from '@flatlay/platform';
import type { image } from '@flatlay/proto';
import { MAX_UPLOAD_BYTES } from '@flatlay/files';
import { toApi } from '../api/api-view.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { emailField } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import { keepUpload, MULTIPART_OVERHEAD_BYTES, type StoredUpload, uploadField } from '../files/uploads.js';
import { idempotencyKeyOf } from '../api/idempotency-key.js';
import { callerMetadata, callerOf } from '../http/auth.js';
import { acceptGuestTry, guestClientOfRequest } from '../http/guest-limits.js';
import { guestTryRoute, imageIdParams } from './guest-try.js';
import {
  ENHANCEMENT_TYPES,
  GenerationBody,
  generationJson,
  ImageBody,
  imageJson,
  imageView,
  StatusBody,
} from './image-bodies.js';

export const NOT_ENOUGH_TO_UNLOCK = "You don't have enough tokens to unlock this image.";
const NOT_FOUND = 'Image not found';
/** Files one batch may carry. */
export const BATCH_FILES = 20;
const LIMIT_RULE = 'limit must be an integer between 1 and 50';
const PAGE_RULE = 'page must be an integer of 1 or more';
/** Failures after which a generation may still have been recorded (the service did not say no). */
const OUTCOME_UNKNOWN = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'INTERNAL']);
/** The service charges through the ledger before it answers: more than a plain read. */
const WRITE_DEADLINE_MS = 15_000;

const idParams = imageIdParams;

const enhancementType = z
  .enum(ENHANCEMENT_TYPES, { error: `enhancement_type must be one of ${ENHANCEMENT_TYPES.join(', ')}` })
  .default('clothing')
  .meta({
    description:
      'A main type (clothing, accessory, shoes, details) or a sub-type; tops, jewelry, two_shoe and logo_detail are open to everyone, the other sub-types need an active subscription',
  });

/** The longest advanced-prompting instruction (the image service's INSTRUCTION_MAX_LENGTH says the same). */
export const INSTRUCTION_MAX_LENGTH = 300;
const instruction = z
  .string()
  .max(INSTRUCTION_MAX_LENGTH, { error: `instruction must be at most ${INSTRUCTION_MAX_LENGTH} characters` })
  .optional()
  .meta({
    description:
      'Advanced prompting: a short instruction for the generative provider (at most 300 characters), stored with the image. Only for an active subscriber whose plan the provider serves, and only where one is configured (GET /images/options says so); otherwise 422. Absent or blank: none',
  });

const photo = uploadField('The photo: JPEG, PNG, WebP, HEIC/HEIF or AVIF (told by its bytes), at most 10 MB');

/** One photo per request: 10 MB plus the text fields. */
const singleUpload = {
  type: 'multipart/form-data' as const,
  limit: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
  upload: { field: 'file', maxFiles: 1, maxFileBytes: MAX_UPLOAD_BYTES },
};

const uploadRefusals = {
  413: refusal('PAYLOAD_TOO_LARGE', 'The image is larger than 10MB. Please choose a smaller file.'),
  415: refusal(
    'UNSUPPORTED_MEDIA_TYPE',
    'Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).',
    'The file is not a JPEG, PNG, WebP, HEIC/HEIF or AVIF image (told by its bytes), or the body is not multipart/form-data',
  ),
};

const notFound = refusal('NOT_FOUND', NOT_FOUND, "No such image, or not the caller's");
const unlockRefusals = {
  402: refusal('INSUFFICIENT_TOKENS', NOT_ENOUGH_TO_UNLOCK, 'Fewer than 100 tokens (and no unlimited plan)'),
  404: notFound,
  409: refusal(
    'CONFLICT',
    'Your image is still being made. You can unlock it as soon as it is ready.',
    'The image is still processing (tokens are taken only for a finished result), or it failed: "This enhancement failed; there is nothing to unlock"',
  ),
};

const UnlockBody = z.object({
  success: z.literal(true),
  tokens_used: z.number().int().meta({ description: '100, or 0 on an unlimited plan or for a repeat' }),
  new_balance: z.number().int(),
  image_url: z.string().nullable().meta({ description: 'The unlocked result; a signed URL that expires' }),
  image: ImageBody,
});

const ImagesPage = z.object({
  images: z.array(ImageBody),
  pagination: z.object({
    page: z.number().int(),
    total_pages: z.number().int(),
    has_prev: z.boolean(),
    has_next: z.boolean(),
    total: z.number().int(),
    limit: z.number().int(),
  }),
});

/** The spec's words for a 402 of an unlock. */
const unlockWords = (error: unknown) =>
  error instanceof AppError && error.code === 'INSUFFICIENT_TOKENS'
    ? new AppError('INSUFFICIENT_TOKENS', NOT_ENOUGH_TO_UNLOCK, error.details)
    : error;

export interface ImageRouteOptions {
  logger: Logger;
  /** The file URL key; live-status tickets are signed with a key derived from it. */
  urlKey: Buffer;
}

/** /api/images: generate, status, the gallery, unlocks, and a guest's try. */
export function imageRoutes(clients: ServiceClients, _options: ImageRouteOptions): ApiRoute[] {
  const tags = ['images'];
  const images = () => clients.image();
  const balanceOf = async (req: Request, known: number | undefined) => {
    if (known !== undefined) return known;
    const l = clients.ledger();
    return (await call(l, l.getBalance, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) })).balance;
  };
  type UnlockOutcome = Pick<image.UnlockWithTokensResponse, 'tokensUsed' | 'newBalance' | 'image'>;
  /** The answer of both unlocks: the image as it now is, and the caller's balance after it. */
  const unlocked = async (req: Request, r: UnlockOutcome) => {
    const img = imageJson(r.image);
    return toApi(UnlockBody, {
      success: true,
      tokensUsed: r.tokensUsed,
      newBalance: await balanceOf(req, r.newBalance),
      imageUrl: img.image_url,
      image: imageView(r.image as image.Image),
    });
  };
  const create = async (
    req: Request,
    file: StoredUpload,
    type: string,
    email: string,
    key: string,
    instruction?: string,
  ) => {
    const c = images();
    const created = await call(
      c,
      c.createGeneration,
      {
        userId: req.caller?.userId ?? '',
        anonymousEmail: email,
        enhancementType: type,
        blobKey: file.key,
        contentType: file.contentType,
        sizeBytes: file.size,
        options: undefined,
        idempotencyKey: key,
        guestClient: guestClientOfRequest(req),
        instruction: instruction?.trim() || undefined,
      },
      { metadata: callerMetadata(req), deadlineMs: WRITE_DEADLINE_MS },
    ).catch((error: unknown) => {
      // No answer (a deadline, an outage): the image may have been recorded, and the image
      // service then settles its charge and makes it from this upload (ADR 0104), so it stays.
      if (!(error instanceof AppError) || OUTCOME_UNKNOWN.has(error.code)) keepUpload(req, file.key);
      throw error;
    });
    // A replay answers the first request's image: this request's upload is not used.
    if (!created.replayed) keepUpload(req, file.key);
    return created;
  };

  return [
    route({
      method: 'post',
      path: '/images/generate',
      tags,
      idempotencyKey: true,
      access: 'user',
      summary: 'Upload a photo and start its enhancement (100 tokens; locked when the caller has fewer)',
      description:
        'The photo is stored and its enhancement queued; poll GET /images/status/{id} (or listen on /images/events). With 100 tokens (or an unlimited plan) the caller is charged now and gets an unlocked result; with fewer, the result is made but locked (is_locked) until unlocked. A refused upload costs nothing and leaves nothing behind.',
      request: {
        body: {
          ...singleUpload,
          schema: z.object({
            file: photo,
            // The hero form also sends `email`: tolerated as an extra field, not declared (a multipart
            // field cannot be anything but text, so a declared one could not be refused by type).
            enhancement_type: enhancementType,
            instruction,
          }),
        },
      },
      responses: {
        200: { description: 'Accepted: the enhancement is processing', schema: GenerationBody },
        400: refusal(
          'INVALID_ARGUMENT',
          'The instruction is too long: at most 300 characters.',
          'An instruction over 300 characters (details.reason: too_long), or another invalid field',
        ),
        422: refusal(
          'UNPROCESSABLE',
          'The "side_view" option needs an active subscription. Choose clothing, accessory, shoes, details, or upgrade your plan.',
          'A sub-type other than tops, jewelry, two_shoe and logo_detail without an active subscription; or an instruction from a caller without an active subscription the generative provider serves, or where no provider is configured (details.reason: subscription_required, not_configured)',
        ),
        ...uploadRefusals,
      },
      async handle(req, res, { body }) {
        res.json(
          generationJson(
            await create(req, body.file, body.enhancement_type, '', idempotencyKeyOf(req), body.instruction),
          ),
        );
      },
    }),

    route({
      method: 'get',
      path: '/images/options',
      tags,
      access: 'none',
      summary: 'What a generation may ask for here: advanced prompting only where a generative provider is configured',
      responses: {
        200: {
          description: 'The options (the plan cards promise advanced prompting only when it is true)',
          schema: z.object({
            advanced_prompting: z.boolean(),
            instruction_max_length: z.number().int(),
          }),
          example: { advanced_prompting: true, instruction_max_length: INSTRUCTION_MAX_LENGTH },
        },
      },
      async handle(_req, res) {
        const c = images();
        const o = await call(c, c.getGenerationOptions, {});
        res.json({ advanced_prompting: o.advancedPrompting, instruction_max_length: o.instructionMaxLength });
      },
    }),

    route({
      method: 'post',
      path: '/images/batch',
      tags,
      idempotencyKey: true,
      access: 'user',
      summary: 'Upload up to 20 photos at once: one image per file, each charged and processed like a single generate',
      description:
        'The files are enhanced in the order sent, each charged 100 tokens while the balance lasts; the rest are made locked. A refused file (too large, not an image) refuses the whole request before anything is charged.',
      request: {
        body: {
          type: 'multipart/form-data',
          limit: BATCH_FILES * MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
          upload: { field: 'files', maxFiles: BATCH_FILES, maxFileBytes: MAX_UPLOAD_BYTES },
          schema: z.object({
            files: z
              .array(photo, { error: 'files is required: 1 to 20 photos' })
              .min(1, { error: 'files is required: 1 to 20 photos' })
              .max(BATCH_FILES, { error: `At most ${BATCH_FILES} files` }),
            enhancement_type: enhancementType,
          }),
        },
      },
      responses: {
        200: {
          description: 'Accepted: one image per file, in the order sent, each processing',
          schema: z.object({
            success: z.literal(true),
            images: z.array(GenerationBody),
            tokensUsed: z.number().int().meta({ description: 'Tokens taken for the whole batch' }),
            newBalance: z.number().int().nullable(),
          }),
        },
        422: refusal('UNPROCESSABLE', 'The "side_view" option needs an active subscription.'),
        ...uploadRefusals,
      },
      async handle(req, res, { body }) {
        const made = [];
        // One key for the batch; each file's image is keyed by it and the file's place in the batch.
        const key = idempotencyKeyOf(req);
        for (const [i, file] of body.files.entries())
          made.push(generationJson(await create(req, file, body.enhancement_type, '', key && `${key}:${i}`)));
        res.json({
          success: true,
          images: made,
          tokensUsed: made.reduce((sum, m) => sum + m.tokensUsed, 0),
          newBalance: made.at(-1)?.newBalance ?? null,
        });
      },
    }),

    route({
      method: 'get',
      path: '/images/status/:id',
      tags,
      access: 'user',
      summary: "One of the caller's images (polled while processing)",
      request: { params: idParams },
      responses: { 200: { description: 'The image', schema: StatusBody }, 404: notFound },
      async handle(req, res, { params }) {
        const c = images();
        const { image } = await call(
          c,
          c.getStatus,
          { userId: callerOf(req).userId, imageId: params.id },
          { metadata: callerMetadata(req) },
        );
        const img = imageJson(image);
        res.json({ ...img, error: img.status === 'failed' ? 'Enhancement failed' : null });
      },
    }),

    route({
      method: 'get',
      path: '/images/',
      tags,
      access: 'user',
      summary: "The caller's images, newest first, a page at a time",
      request: {
        query: z.object({
          page: z.coerce
            .number({ error: PAGE_RULE })
            .int({ error: PAGE_RULE })
            .min(1, { error: PAGE_RULE })
            .max(1_000_000, { error: PAGE_RULE })
            .default(1)
            .meta({ type: 'integer' }),
          limit: z.coerce
            .number({ error: LIMIT_RULE })
            .int({ error: LIMIT_RULE })
            .min(1, { error: LIMIT_RULE })
            .max(50, { error: LIMIT_RULE })
            .default(12)
            .meta({ description: 'Images per page', type: 'integer' }),
        }),
      },
      responses: {
        200: {
          description: 'A page of images',
          schema: ImagesPage,
        },
      },
      async handle(req, res, { query }) {
        const c = images();
        const list = await call(
          c,
          c.listImages,
          { userId: callerOf(req).userId, page: query.page, limit: query.limit },
          { metadata: callerMetadata(req) },
        );
        const none = { page: query.page, totalPages: 0, hasPrev: false, hasNext: false, total: 0, limit: query.limit };
        res.json(toApi(ImagesPage, { images: list.images.map(imageView), pagination: list.pagination ?? none }));
      },
    }),

    route({
      method: 'post',
      path: '/images/unlock-with-tokens/:id',
      tags,
      idempotencyKey: true,
      access: 'user',
      summary: 'Unlock a locked result for 100 tokens (free on an unlimited plan); a repeat is free',
      request: { params: idParams },
      responses: { 200: { description: 'Unlocked', schema: UnlockBody }, ...unlockRefusals },
      async handle(req, res, { params }) {
        const c = images();
        const r = await call(
          c,
          c.unlockWithTokens,
          { userId: callerOf(req).userId, imageId: params.id },
          { metadata: callerMetadata(req), deadlineMs: WRITE_DEADLINE_MS },
        ).catch((error: unknown) => {
          throw unlockWords(error);
        });
        res.json(await unlocked(req, r));
      },
    }),

    route({
      method: 'post',
      path: '/images/anonymous/generate',
      tags,
      idempotencyKey: true,
      access: 'none',
      summary: "A guest's try: upload a photo with an e-mail address; the result is locked until paid",
      description:
        "Limited per client IP (an IPv6 client's /64) and per e-mail address per hour, and to a few tries still processing at once; over a limit: 429 with Retry-After and a message to sign up. An unclaimed, unpaid try is deleted after the retention (ANON_RETENTION_DAYS); its status then answers 404.",
      guestTry: true,
      request: {
        body: {
          ...singleUpload,
          schema: z.object({
            file: photo,
            email: emailField('Please enter a valid email address.'),
            enhancement_type: enhancementType,
          }),
        },
      },
      responses: {
        200: {
          description: 'Accepted: poll GET /images/anonymous/status/{id}',
          schema: z.object({ success: z.literal(true), enhancement_id: z.uuid() }),
        },
        422: refusal('UNPROCESSABLE', 'The "side_view" option needs an active subscription.'),
        ...uploadRefusals,
      },
      async handle(req, res, { body }) {
        const created = await create(req, body.file, body.enhancement_type, body.email.trim(), idempotencyKeyOf(req));
        acceptGuestTry(req);
        res.json({ success: true, enhancement_id: created.imageId });
      },
    }),

    guestTryRoute(clients, {
      path: '/images/anonymous/status/:id',
      tags,
      summary: "A guest's try (the enhancement id is the guest's handle)",
    }),

    route({
      method: 'post',
      path: '/images/unlock-anonymous-with-tokens/:id',
      tags,
      idempotencyKey: true,
      access: 'user',
      summary: "Claim a guest's try into the caller's gallery, unlocked, for 100 tokens; a repeat is free",
      request: { params: idParams },
      responses: {
        200: { description: 'Claimed and unlocked', schema: UnlockBody },
        ...unlockRefusals,
        404: refusal('NOT_FOUND', NOT_FOUND, "No guest's try with this id, or one another user claimed"),
      },
      async handle(req, res, { params }) {
        const c = images();
        const r = await call(
          c,
          c.claimAnonymous,
          { userId: callerOf(req).userId, enhancementId: params.id },
          { metadata: callerMetadata(req), deadlineMs: WRITE_DEADLINE_MS },
        ).catch((error: unknown) => {
          throw unlockWords(error);
        });
        res.json(await unlocked(req, r));
      },
    }),
  ];
}
