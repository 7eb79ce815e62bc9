import { billing } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';

/** Maps the BillingService protobuf API to the application. */
export function billingGrpcService(ctx: ServiceContext): GrpcService {
  const implementation: billing.BillingServiceServer = {
    getServiceStatus: unary(ctx.logger, async () => serviceStatus(ctx)),
  };
  return { name: 'flatlay.billing.v1.BillingService', definition: billing.BillingServiceService, implementation };
}
