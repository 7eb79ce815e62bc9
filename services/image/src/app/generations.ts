import { randomUUID } from 'node:crypto';
import { AppError, enqueueOutbox, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import type { BlobStore } from '../blobs/index.js';
import {
  anonymousView,
  checkEnhancementType,
  checkUpload,
  imageView,
  newJob,
  pageRequest,
  pagination,
  type SignKey,
} from '../domain/index.js';
import { generationRequested, imageUnlocked } from './image-events.js';
import {
  claimGuestImage,
  findImage,
  findOwnedImage,
  insertImage,
  listImages,
  type GenerationOptions,
  unlockImage,
} from './image-store.js';
import { insertJob } from './job-store.js';
import type { LedgerPort } from './ledger-port.js';
import { checkOutputOptions } from './output-options.js';
import { hasActiveSubscription } from './user-plans.js';

export interface GenerationsDeps {
  pool: Pool;
  blobs: BlobStore;
  ledger: LedgerPort;
  /** Signs a blob key into an expiring URL the gateway serves. */
  sign: SignKey;
  logger: Logger;
  clock?: () => Date;
}

export interface CreateGeneration {
  userId: string;
  anonymousEmail: string;
  enhancementType: string;
  blobKey: string;
  contentType: string;
  sizeBytes: number;
  options?: Partial<GenerationOptions>;
  /** A guest's client (the gateway's keyed hash of its address), for the limit on unfinished tries (ADR 0105). */
  guestClient?: string;
}

const notFound = () => new AppError('NOT_FOUND', 'Image not found');
const required = (value: string, field: string) => {
  if (!value) throw new AppError('INVALID_ARGUMENT', `${field} is required`);
  return value;
};

/** Uploads turned into generation jobs, the gallery, and unlocks (the service's use cases). */
export class Generations {
  private readonly clock: () => Date;
  /** Told of each job once it is committed (the in-process worker takes it without waiting for the bus). */
  private queuedListener: ((imageId: string) => void) | undefined;

  constructor(private readonly deps: GenerationsDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  whenQueued(listener: (imageId: string) => void): void {
    this.queuedListener = listener;
  }

  private view = (image: Parameters<typeof imageView>[0]) => imageView(image, this.deps.sign);

  async create(req: CreateGeneration) {
    const { pool, blobs, ledger } = this.deps;
    const userId = req.userId || null;
    if (!userId && !req.anonymousEmail.includes('@'))
      throw new AppError('INVALID_ARGUMENT', 'Please enter a valid email address.');
    const upload = checkUpload(req.blobKey, req.contentType, req.sizeBytes);
    if (!upload.ok) throw new AppError(upload.code, upload.message);
    const stored = await blobs.head(req.blobKey);
    if (!stored) throw new AppError('INVALID_ARGUMENT', 'The uploaded file was not found; upload it again');
    const verdict = checkEnhancementType(req.enhancementType, !!userId && (await hasActiveSubscription(pool, userId)));
    if (!verdict.allowed)
      throw new AppError(verdict.reason === 'unknown' ? 'INVALID_ARGUMENT' : 'PERMISSION_DENIED', verdict.message);
    const options = checkOutputOptions(req.options);

    const imageId = randomUUID();
    // The charge comes before the job is queued: whoever has the tokens (or an unlimited plan)
    // pays now and gets an unlocked result; with too few, the result is made but locked.
    let charged = 0;
    let balance: number | undefined;
    let locked = true;
    if (userId) {
      try {
        ({ charged, balance } = await ledger.spend(userId, imageId, 'enhancement'));
        locked = false;
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_TOKENS') throw error;
        balance = typeof error.details.balance === 'number' ? error.details.balance : undefined;
      }
    }
    const at = this.clock();
    const image = {
      imageId,
      userId,
      guestEmail: userId ? null : req.anonymousEmail.trim().toLowerCase(),
      enhancementType: verdict.type,
      options,
      originalKey: req.blobKey,
      originalType: req.contentType,
      originalBytes: stored.size,
      isLocked: locked,
      chargedTokens: charged,
      createdAt: at,
      // ADR 0105: the guest's client, counted by the gateway's limit on unfinished tries.
      guestClient: userId ? null : req.guestClient || null,
    };
    try {
      await withTransaction(pool, async (tx) => {
        await insertImage(tx, image);
        await insertJob(tx, imageId, newJob(at), at);
        await enqueueOutbox(tx, [
          generationRequested({ ...image, contentType: req.contentType, locked, tokensCharged: charged }, at),
        ]);
      });
    } catch (error) {
      // Nothing was queued: give the charge back (keyed by image id, so at most once).
      if (userId && !locked)
        await ledger
          .refund(userId, imageId)
          .catch((err) =>
            this.deps.logger.error({ err, imageId }, 'could not refund a generation that was never queued'),
          );
      throw error;
    }
    this.queuedListener?.(imageId);
    const view = this.view({ ...image, status: 'processing', resultKey: null, previewKey: null });
    return { image: view, imageId, status: view.status, locked, tokensUsed: charged, newBalance: balance };
  }

  async status(userId: string, imageId: string) {
    const image = await findOwnedImage(this.deps.pool, imageId, required(userId, 'userId'));
    if (!image) throw notFound();
    return { image: this.view(image) };
  }

  async list(userId: string, page: number, limit: number) {
    const request = pageRequest(page, limit);
    if (!request) throw new AppError('INVALID_ARGUMENT', 'page must be 1 or more and limit from 1 to 50');
    const { images, total } = await listImages(
      this.deps.pool,
      required(userId, 'userId'),
      request.limit,
      request.offset,
    );
    return { images: images.map(this.view), pagination: pagination(request, total) };
  }

  /** 100 tokens for a locked image (free inside an unlimited plan); a repeat changes nothing. */
  async unlockWithTokens(userId: string, imageId: string) {
    const { pool, ledger } = this.deps;
    const image = await findOwnedImage(pool, imageId, required(userId, 'userId'));
    if (!image) throw notFound();
    if (image.status === 'failed')
      throw new AppError('CONFLICT', 'This enhancement failed; there is nothing to unlock');
    if (!image.isLocked) return { success: true, tokensUsed: 0, newBalance: undefined, image: this.view(image) };
    const { charged, balance } = await ledger.spend(userId, imageId, 'unlock');
    const at = this.clock();
    await withTransaction(pool, async (tx) => {
      if (await unlockImage(tx, imageId, 'tokens', at))
        await enqueueOutbox(tx, [
          imageUnlocked({ imageId, userId, via: 'tokens', tokensSpent: charged, paymentId: '' }, at),
        ]);
    });
    return {
      success: true,
      tokensUsed: charged,
      newBalance: balance,
      image: this.view({ ...image, isLocked: false }),
    };
  }

  /** A guest's result into the caller's gallery, unlocked, for 100 tokens; once per user. */
  async claimAnonymous(userId: string, enhancementId: string) {
    const { pool, ledger } = this.deps;
    required(userId, 'userId');
    // The row stays locked while the ledger charges, so two users claiming one try cannot both pay.
    return withTransaction(pool, async (tx) => {
      const image = await findImage(tx, enhancementId, true);
      if (!image?.guestEmail || (image.userId && image.userId !== userId)) throw notFound();
      if (image.userId === userId) {
        const view = this.view(image);
        return { success: true, tokensUsed: 0, newBalance: undefined, imageUrl: view.imageUrl, image: view };
      }
      if (image.status === 'failed')
        throw new AppError('CONFLICT', 'This enhancement failed; there is nothing to unlock');
      const { charged, balance } = await ledger.spend(userId, image.imageId, 'unlock');
      const at = this.clock();
      await claimGuestImage(tx, image.imageId, userId, at);
      await enqueueOutbox(tx, [
        imageUnlocked({ imageId: image.imageId, userId, via: 'claim', tokensSpent: charged, paymentId: '' }, at),
      ]);
      const view = this.view({ ...image, userId, isLocked: false });
      return { success: true, tokensUsed: charged, newBalance: balance, imageUrl: view.imageUrl, image: view };
    });
  }

  async anonymousStatus(enhancementId: string) {
    const image = await findImage(this.deps.pool, enhancementId);
    if (!image?.guestEmail) throw notFound();
    return anonymousView(image, this.deps.sign);
  }

  /**
   * A one-off payment unlocks the image (a user's or a guest's); once per image. `payer` is who
   * billing says paid: a user's payment unlocks only that user's image, a guest's only a guest's
   * try (NOT_FOUND otherwise, as for a missing image). `tx`: inside the caller's transaction (the
   * event consumer's inbox), so the unlock and the event's record commit together.
   */
  async markPaid(imageId: string, paymentId: string, payer?: { userId: string } | 'guest', tx?: Queryable) {
    const work = async (q: Queryable) => {
      const image = await findImage(q, imageId, true);
      if (!image) throw notFound();
      if (payer === 'guest' && !image.guestEmail) throw notFound();
      if (payer && payer !== 'guest' && image.userId !== payer.userId) throw notFound();
      const at = this.clock();
      if (!(await unlockImage(q, imageId, 'payment', at, { paymentId }))) return false;
      await enqueueOutbox(q, [
        imageUnlocked({ imageId, userId: image.userId ?? '', via: 'payment', tokensSpent: 0, paymentId }, at),
      ]);
      return true;
    };
    const unlocked = tx ? await work(tx) : await withTransaction(this.deps.pool, work);
    return { unlocked };
  }
}
