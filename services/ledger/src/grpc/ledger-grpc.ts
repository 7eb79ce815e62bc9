import { ledger } from '@flatlay/proto';
import { serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';

/** Maps the LedgerService protobuf API to the application. */
export function ledgerGrpcService(ctx: ServiceContext): GrpcService {
  const implementation: ledger.LedgerServiceServer = {
    getServiceStatus: unary(ctx.logger, async () => serviceStatus(ctx)),
  };
  return { name: 'flatlay.ledger.v1.LedgerService', definition: ledger.LedgerServiceService, implementation };
}
