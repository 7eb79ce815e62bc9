import { randomUUID } from 'node:crypto';
import {
  AppError,
  checkIdempotencyKey,
  enqueueOutbox,
  withTransaction,
  type Logger,
  type Pool,
  type Queryable,
} from '@flatlay/platform';
import type { BlobStore } from '@flatlay/files';
import {
  anonymousView,
  checkEnhancementType,
  checkInstruction,
  checkUpload,
  INSTRUCTION_MAX_LENGTH,
  imageView,
  newChargingJob,
  newJob,
  type JobPolicy,
  pageRequest,
  pagination,
  type SignKey,
} from '../domain/index.js';
import { recordUnlock, settleCharge, settleUnlock } from './charges.js';
import { idempotentImageId } from './idempotency.js';
import { generationRequested, imageUnlocked } from './image-events.js';
import {
  claimGuestImage,
  findImage,
  findOwnedImage,
  insertImage,
  listImages,
  type GenerationOptions,
  type NewImage,
  type StoredImage,
  unlockImage,
} from '../adapters/image-store.js';
import { insertJob } from '../adapters/job-store.js';
import type { LedgerPort } from '../adapters/ledger-client.js';
import { checkOutputOptions } from './output-options.js';
import { hasActiveSubscription, planOf } from './user-plans.js';
import type { GenerativeSettingsSource } from '../adapters/generative/index.js';

export interface GenerationsDeps {
  pool: Pool;
  blobs: BlobStore;
  ledger: LedgerPort;
  policy: JobPolicy;
  /** Signs a blob key into an expiring URL the gateway serves. */
  sign: SignKey;
  logger: Logger;
  clock?: () => Date;
  /** Whether (and for which plans) a generative provider is configured: who may add an instruction. */
  generativeSettings?: GenerativeSettingsSource;
}

export interface CreateGeneration {
  userId: string;
  anonymousEmail: string;
  enhancementType: string;
  blobKey: string;
  contentType: string;
  sizeBytes: number;
  options?: Partial<GenerationOptions>;
  /** The client's Idempotency-Key; '' or absent: none. */
  idempotencyKey?: string;
  /** A guest's client (the gateway's keyed hash of its address), for the limit on unfinished tries (ADR 0105). */
  guestClient?: string;
  /** A subscriber's advanced-prompting instruction (#28); absent or blank: none. */
  instruction?: string;
}

const notFound = () => new AppError('NOT_FOUND', 'Image not found');

export const STILL_PROCESSING = 'Your image is still being made. You can unlock it as soon as it is ready.';
export const FAILED_NOTHING_TO_UNLOCK = 'This enhancement failed; there is nothing to unlock';

/**
 * Tokens are taken for an unlock only once the result exists (ADR 0104): an image that is still
 * processing may yet fail, and an unlock charged before would then be owed back.
 */
function refuseUnlessReady(status: string): void {
  if (status === 'failed') throw new AppError('CONFLICT', FAILED_NOTHING_TO_UNLOCK);
  if (status !== 'completed') throw new AppError('CONFLICT', STILL_PROCESSING);
}
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

  /** Tells the in-process worker of a job queued elsewhere in this process (the charge sweeper). */
  offerQueued(imageId: string): void {
    this.queuedListener?.(imageId);
  }

  private view = (image: Parameters<typeof imageView>[0]) => imageView(image, this.deps.sign);

  async create(req: CreateGeneration) {
    const { pool, blobs } = this.deps;
    const userId = req.userId || null;
    if (!userId && !req.anonymousEmail.includes('@'))
      throw new AppError('INVALID_ARGUMENT', 'Please enter a valid email address.');
    const guestEmail = userId ? null : req.anonymousEmail.trim().toLowerCase();
    const key = checkIdempotencyKey(req.idempotencyKey);
    const imageId = key ? idempotentImageId(userId ? `user:${userId}` : `guest:${guestEmail}`, key) : randomUUID();
    // A repeated request (the same key): the first one's image, settled if a crash left it charging.
    if (key) {
      const earlier = await this.replay(imageId, req.blobKey);
      if (earlier) return earlier;
    }
    const upload = checkUpload(req.blobKey, req.contentType, req.sizeBytes);
    if (!upload.ok) throw new AppError(upload.code, upload.message);
    const stored = await blobs.head(req.blobKey);
    if (!stored) throw new AppError('INVALID_ARGUMENT', 'The uploaded file was not found; upload it again');
    const verdict = checkEnhancementType(req.enhancementType, !!userId && (await hasActiveSubscription(pool, userId)));
    if (!verdict.allowed)
      // A sub-type the caller's plan lacks is a business refusal (422), never 403: the web app signs
      // a person out on a 403.
      throw new AppError(verdict.reason === 'unknown' ? 'INVALID_ARGUMENT' : 'UNPROCESSABLE', verdict.message);
    const options = checkOutputOptions(req.options);
    const instruction = await this.instructionOf(req.instruction, userId);

    const at = this.clock();
    const image = {
      imageId,
      userId,
      guestEmail,
      enhancementType: verdict.type,
      options,
      originalKey: req.blobKey,
      originalType: req.contentType,
      originalBytes: stored.size,
      // Locked and uncharged until the charge is settled (a guest's try stays so until paid).
      isLocked: true,
      chargedTokens: 0,
      createdAt: at,
      // ADR 0105: the guest's client, counted by the gateway's limit on unfinished tries.
      guestClient: userId ? null : req.guestClient || null,
      instruction,
    };
    // The image and its job first (ADR 0104): a signed-in user's job waits 'charging', so a crash
    // before, during or after the ledger's spend still leaves a job the charge sweeper settles.
    const inserted = await withTransaction(pool, async (tx) => {
      if (!(await insertImage(tx, image))) return false;
      await insertJob(tx, imageId, userId ? newChargingJob(at) : newJob(at), at);
      if (!userId)
        await enqueueOutbox(tx, [
          generationRequested({ ...image, contentType: req.contentType, locked: true, tokensCharged: 0 }, at),
        ]);
      return true;
    });
    // The same key raced in twice: the other request made the image.
    if (!inserted) return (await this.replay(imageId, req.blobKey)) ?? this.conflict();
    if (!userId) return this.accepted(image, { charged: 0, balance: undefined, locked: true });

    const outcome = await settleCharge(this.chargeDeps(), imageId, this.clock());
    if (outcome.kind === 'refused') throw new AppError('CONFLICT', outcome.message);
    if (outcome.kind === 'settled-before') return (await this.replay(imageId, req.blobKey)) ?? this.conflict();
    return this.accepted({ ...image, isLocked: outcome.locked, chargedTokens: outcome.charged }, outcome);
  }

  /** The instruction to store with the image, or a refusal saying why it cannot be honoured here. */
  private async instructionOf(raw: string | undefined, userId: string | null): Promise<string | null> {
    if (!raw?.trim()) return null;
    const settings = await this.deps.generativeSettings?.current();
    const plan = userId ? await planOf(this.deps.pool, userId) : undefined;
    const verdict = checkInstruction(raw, { providerPlans: settings?.plans, plan });
    // Too long is the request's fault (400); a plan or deployment without the feature is refused as
    // a sub-type of the plans is on this call (422: a business refusal, never a 403 that signs out).
    if (!verdict.allowed)
      throw new AppError(verdict.reason === 'too_long' ? 'INVALID_ARGUMENT' : 'UNPROCESSABLE', verdict.message, {
        reason: verdict.reason,
      });
    return verdict.instruction;
  }

  /** What the web app may offer: advanced prompting only where a generative provider is configured. */
  async generationOptions() {
    const settings = await this.deps.generativeSettings?.current().catch(() => undefined);
    return { advancedPrompting: settings !== undefined, instructionMaxLength: INSTRUCTION_MAX_LENGTH };
  }

  private chargeDeps() {
    const { pool, ledger, policy, logger } = this.deps;
    return { pool, ledger, policy, logger };
  }

  private accepted(image: NewImage, charge: { charged: number; balance: number | undefined; locked: boolean }) {
    this.queuedListener?.(image.imageId);
    const view = this.view({ ...image, status: 'processing', resultKey: null, previewKey: null });
    return {
      image: view,
      imageId: image.imageId,
      status: view.status,
      locked: charge.locked,
      tokensUsed: charge.charged,
      newBalance: charge.balance,
      replayed: false,
    };
  }

  /**
   * The answer to a repeated request: the image as it stands, its charge settled first if need be.
   * `replayed` says whether this request's upload is other than the image's original (the gateway
   * then deletes it): the request that made the image keeps its upload, whoever settled it.
   */
  private async replay(imageId: string, blobKey: string) {
    let image = await findImage(this.deps.pool, imageId);
    if (!image) return undefined;
    if (image.userId) {
      const outcome = await settleCharge(this.chargeDeps(), imageId, this.clock());
      if (outcome.kind === 'queued') this.queuedListener?.(imageId);
      image = (await findImage(this.deps.pool, imageId)) ?? image;
    }
    const view = this.view(image);
    return {
      image: view,
      imageId,
      status: view.status,
      locked: image.isLocked,
      tokensUsed: image.chargedTokens,
      newBalance: undefined,
      replayed: image.originalKey !== blobKey,
    };
  }

  private conflict(): never {
    throw new AppError('CONFLICT', 'This request is being handled; try again in a moment');
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
    const image = await findOwnedImage(this.deps.pool, imageId, required(userId, 'userId'));
    if (!image) throw notFound();
    if (!image.isLocked) return { success: true, tokensUsed: 0, newBalance: undefined, image: this.view(image) };
    refuseUnlessReady(image.status);
    const done = await this.unlockByTokens(userId, imageId, 'tokens');
    return { success: true, tokensUsed: done.charged, newBalance: done.balance, image: this.view(done.image) };
  }

  /** A guest's result into the caller's gallery, unlocked, for 100 tokens; once per user. */
  async claimAnonymous(userId: string, enhancementId: string) {
    required(userId, 'userId');
    const image = await findImage(this.deps.pool, enhancementId);
    if (!image?.guestEmail || (image.userId && image.userId !== userId)) throw notFound();
    if (image.userId === userId) {
      const view = this.view(image);
      return { success: true, tokensUsed: 0, newBalance: undefined, imageUrl: view.imageUrl, image: view };
    }
    refuseUnlessReady(image.status);
    const done = await this.unlockByTokens(userId, image.imageId, 'claim');
    const view = this.view(done.image);
    return { success: true, tokensUsed: done.charged, newBalance: done.balance, imageUrl: view.imageUrl, image: view };
  }

  /**
   * An unlock paid with tokens, recorded before the ledger's spend (ADR 0104): a crash between the
   * spend and the unlock leaves the record, and the charge sweeper finishes it. Of two users
   * claiming one guest's try, the first to record it goes on; the other finds it taken (404).
   */
  private async unlockByTokens(userId: string, imageId: string, via: 'tokens' | 'claim') {
    if (!(await recordUnlock(this.deps.pool, imageId, userId, this.clock()))) {
      const now = await findImage(this.deps.pool, imageId);
      if (now && now.userId === userId && !now.isLocked) return { charged: 0, balance: undefined, image: now };
      throw notFound();
    }
    const outcome = await settleUnlock(this.deps, imageId, userId, (tx, image, charged) =>
      this.unlocked(tx, image, userId, via, charged),
    );
    const image = (await findImage(this.deps.pool, imageId)) ?? outcome.image;
    if (!image || image.userId !== userId) throw notFound();
    return { charged: outcome.charged, balance: outcome.balance, image };
  }

  /** Inside the transaction that finishes an unlock paid with tokens. */
  async unlocked(tx: Queryable, image: StoredImage, userId: string, via: 'tokens' | 'claim', charged: number) {
    const at = this.clock();
    const changed =
      via === 'claim'
        ? await claimGuestImage(tx, image.imageId, userId, at)
        : await unlockImage(tx, image.imageId, 'tokens', at);
    if (changed)
      await enqueueOutbox(tx, [
        imageUnlocked({ imageId: image.imageId, userId, via, tokensSpent: charged, paymentId: '' }, at),
      ]);
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
