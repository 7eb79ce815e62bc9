import { image } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';
import type { Generations } from '../app/generations.js';
import { refundsNotPossible } from '../adapters/image-store.js';
import { countUnfinishedGuestTries } from '../app/guest-tries.js';

/** Maps the ImageService protobuf API to the application. */
export function imageGrpcService(ctx: ServiceContext, generations: Generations): GrpcService {
  const { logger } = ctx;
  const implementation: image.ImageServiceServer = {
    getServiceStatus: unary(logger, async () => serviceStatus(ctx)),
    createGeneration: unary(logger, (req: image.CreateGenerationRequest) =>
      generations.create({ ...req, options: req.options }),
    ),
    getStatus: unary(logger, (req: image.GetStatusRequest) => generations.status(req.userId, req.imageId)),
    listImages: unary(logger, (req: image.ListImagesRequest) => generations.list(req.userId, req.page, req.limit)),
    unlockWithTokens: unary(logger, (req: image.UnlockWithTokensRequest) =>
      generations.unlockWithTokens(req.userId, req.imageId),
    ),
    claimAnonymous: unary(logger, (req: image.ClaimAnonymousRequest) =>
      generations.claimAnonymous(req.userId, req.enhancementId),
    ),
    getAnonymousStatus: unary(logger, (req: image.GetAnonymousStatusRequest) =>
      generations.anonymousStatus(req.enhancementId),
    ),
    markPaid: unary(logger, (req: image.MarkPaidRequest) => generations.markPaid(req.imageId, req.paymentId)),
    listUnpaidRefunds: unary(logger, async (req: image.ListUnpaidRefundsRequest) => ({
      refunds: await refundsNotPossible(ctx.pool, Math.min(500, req.limit || 100)),
    })),
    countUnfinishedGuestTries: unary(logger, (req: image.CountUnfinishedGuestTriesRequest) =>
      countUnfinishedGuestTries(ctx.pool, req.guestEmail, req.guestClient),
    ),
    getGenerationOptions: unary(logger, () => generations.generationOptions()),
  };
  return { name: 'flatlay.image.v1.ImageService', definition: image.ImageServiceService, implementation };
}
