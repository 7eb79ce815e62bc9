// The one list of Flatlay's services: where each serves gRPC, what it publishes and consumes on
// the bus, and whom it may call. Services, the gateway's defaults, the gRPC authorisation and the
// Helm chart's test all read it, so a port, topic or call edge is written down once.
import { topics } from '@flatlay/proto';

export const serviceNames = ['identity', 'ledger', 'image', 'billing', 'analytics'] as const;
export type ServiceName = (typeof serviceNames)[number];
/** Who may present a service credential: a service, or the gateway in front of them all. */
export type CallerName = ServiceName | 'gateway';

export interface ServiceEntry {
  name: ServiceName;
  grpcPort: number;
  /** Protobuf package of its API: clients of `flatlay.ledger.v1.*` are calling the ledger. */
  grpcPackage: string;
  /** Topics it writes through its outbox. */
  publishes: string[];
  /** Its consumer group and the topics that group reads (none: it reacts to nothing). */
  consumes?: { group: string; topics: string[] };
  /** Services it may call over gRPC; every other call from it is refused. */
  calls: ServiceName[];
}

export interface GatewayEntry {
  name: 'gateway';
  httpPort: number;
  calls: ServiceName[];
}

const allTopics = Object.values(topics);

// Commands that need an answer now go over gRPC; facts go over the bus. So only the gateway and
// the image service (spending and refunding tokens for a generation while the user waits) call
// anyone; identity, ledger, billing and analytics learn everything else from events.
export const registry: { gateway: GatewayEntry } & { [N in ServiceName]: ServiceEntry & { name: N } } = {
  gateway: { name: 'gateway', httpPort: 8080, calls: [...serviceNames] },
  identity: {
    name: 'identity',
    grpcPort: 50051,
    grpcPackage: 'flatlay.identity.v1',
    publishes: [topics.identityUser],
    consumes: { group: 'identity', topics: [topics.billingSubscription] },
    calls: [],
  },
  ledger: {
    name: 'ledger',
    grpcPort: 50052,
    grpcPackage: 'flatlay.ledger.v1',
    publishes: [topics.ledgerAccount],
    consumes: { group: 'ledger', topics: [topics.identityUser, topics.billingPayment, topics.billingSubscription] },
    calls: [],
  },
  image: {
    name: 'image',
    grpcPort: 50053,
    grpcPackage: 'flatlay.image.v1',
    publishes: [topics.imageGeneration, topics.imageGenerationRequested],
    // analytics.settings.v1: the operator's generative key, kept for the workers too (ADR 0103).
    consumes: { group: 'image', topics: [topics.identityUser, topics.billingPayment, topics.analyticsSettings] },
    calls: ['ledger'],
  },
  billing: {
    name: 'billing',
    grpcPort: 50054,
    grpcPackage: 'flatlay.billing.v1',
    publishes: [topics.billingPayment, topics.billingSubscription],
    consumes: { group: 'billing', topics: [topics.identityUser, topics.analyticsSettings] },
    calls: [],
  },
  analytics: {
    name: 'analytics',
    grpcPort: 50055,
    grpcPackage: 'flatlay.analytics.v1',
    publishes: [topics.analyticsSettings],
    consumes: { group: 'analytics', topics: allTopics.filter((t) => t !== topics.imageGenerationRequested) },
    calls: [],
  },
};

/** The image work queue: GPU workers share this consumer group, so they scale by partitions. */
export const generationWorkQueue = { topic: topics.imageGenerationRequested, group: 'image-worker' } as const;

export const isServiceName = (name: string): name is ServiceName => (serviceNames as readonly string[]).includes(name);

/** Topics a service publishes or consumes, to be created when missing (6 partitions each, as before). */
export function serviceTopics(name: ServiceName, partitions = 6): Array<{ name: string; partitions: number }> {
  const entry = registry[name];
  return [...new Set([...entry.publishes, ...(entry.consumes?.topics ?? [])])].map((t) => ({ name: t, partitions }));
}

/** Whether `caller` may call `callee`. */
export function mayCall(caller: string, callee: ServiceName): boolean {
  if (caller === 'gateway') return registry.gateway.calls.includes(callee);
  return isServiceName(caller) && registry[caller].calls.includes(callee);
}

/** The service whose API a fully qualified gRPC service name belongs to (flatlay.ledger.v1.LedgerService -> ledger). */
export function serviceOfGrpcName(grpcServiceName: string): ServiceName | undefined {
  return serviceNames.find((n) => grpcServiceName.startsWith(`${registry[n].grpcPackage}.`));
}
