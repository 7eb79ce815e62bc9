import { identity } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';

/** Maps the IdentityService protobuf API to the application. */
export function identityGrpcService(ctx: ServiceContext): GrpcService {
  const implementation: identity.IdentityServiceServer = {
    getServiceStatus: unary(ctx.logger, async () => serviceStatus(ctx)),
  };
  return { name: 'flatlay.identity.v1.IdentityService', definition: identity.IdentityServiceService, implementation };
}
