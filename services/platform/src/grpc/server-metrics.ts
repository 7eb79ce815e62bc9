// RED metrics of every gRPC method a service serves: one duration histogram whose count is the
// rate, labelled by method and status (errors), recorded when the status is sent.
import { ResponderBuilder, ServerInterceptingCall, type ServerInterceptor } from '@grpc/grpc-js';
import { instrument, LATENCY_BUCKETS_S } from '../metrics/instruments.js';
import { grpcCodeName, grpcMethodOf } from '../metrics/labels.js';

const callDuration = () =>
  instrument('rpc.server.call.duration', (meter) =>
    meter.createHistogram('rpc.server.call.duration', {
      description: 'Duration of gRPC calls this service served, by method and status',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
    }),
  );

/**
 * Times every call from its arrival to its status. It sits innermost (first in the server's
 * list), so calls the credential check refuses are counted too, with their status.
 */
export const grpcMetricsInterceptor: ServerInterceptor = (methodDescriptor, call) => {
  const started = performance.now();
  const { service, method } = grpcMethodOf(methodDescriptor.path);
  return new ServerInterceptingCall(
    call,
    new ResponderBuilder()
      .withSendStatus((status, next) => {
        callDuration().record((performance.now() - started) / 1000, {
          'rpc.system': 'grpc',
          'rpc.service': service,
          'rpc.method': method,
          'rpc.grpc.status_code': grpcCodeName(status.code),
        });
        next(status);
      })
      .build(),
  );
};
