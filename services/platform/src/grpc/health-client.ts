import {
  makeGenericClientConstructor,
  type CallOptions,
  type ChannelCredentials,
  type Client,
  type Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

interface HealthCheckResponse {
  status: number | string;
}

interface HealthClientShape extends Client {
  check(
    request: { service: string },
    metadata: Metadata,
    options: CallOptions,
    callback: (error: ServiceError | null, response: HealthCheckResponse) => void,
  ): void;
}

/** Client of the standard grpc.health.v1.Health service, built from the package's own definition. */
export const HealthClient = makeGenericClientConstructor(healthService, 'Health') as unknown as new (
  address: string,
  creds: ChannelCredentials,
) => HealthClientShape;
