import { image } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';

/** Maps the ImageService protobuf API to the application. */
export function imageGrpcService(ctx: ServiceContext): GrpcService {
  const implementation: image.ImageServiceServer = {
    getServiceStatus: unary(ctx.logger, async () => serviceStatus(ctx)),
  };
  return { name: 'flatlay.image.v1.ImageService', definition: image.ImageServiceService, implementation };
}
