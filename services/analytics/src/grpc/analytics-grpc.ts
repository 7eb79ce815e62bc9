import { analytics } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';

/** Maps the AnalyticsService protobuf API to the application. */
export function analyticsGrpcService(ctx: ServiceContext): GrpcService {
  const implementation: analytics.AnalyticsServiceServer = {
    getServiceStatus: unary(ctx.logger, async () => serviceStatus(ctx)),
  };
  return {
    name: 'flatlay.analytics.v1.AnalyticsService',
    definition: analytics.AnalyticsServiceService,
    implementation,
  };
}
