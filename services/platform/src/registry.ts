// The one list of Flatlay's services: where each serves gRPC, what it publishes and consumes on
// the bus, and which methods of which services it may call. Services, the gateway's defaults, the
// gRPC authorisation and the Helm chart's test all read it, so a port, topic or call edge is
// written down once.
import { topics } from '@flatlay/proto';

export const serviceNames = ['identity', 'ledger', 'image', 'billing', 'analytics'] as const;
export type ServiceName = (typeof serviceNames)[number];
/**
 * Who may present a service credential, each with a key pair of its own (ADR 0008): a service,
 * the gateway in front of them all, or a generation worker run as its own process (it parses
 * untrusted images, so it holds no more than it needs).
 */
export const callerNames = ['gateway', ...serviceNames, 'image-worker'] as const;
export type CallerName = (typeof callerNames)[number];

/**
 * The methods of other services one caller may call, by service: the names the .proto gives them
 * (`Spend`), or `all` for every method of that service. A call to any other method is refused.
 */
export type CallEdges = { readonly [S in ServiceName]?: readonly string[] | 'all' };

export interface ServiceEntry {
  name: ServiceName;
  grpcPort: number;
  /** Protobuf package of its API: clients of `flatlay.ledger.v1.*` are calling the ledger. */
  grpcPackage: string;
  /** Topics it writes through its outbox. */
  publishes: string[];
  /** Its consumer group and the topics that group reads (none: it reacts to nothing). */
  consumes?: { group: string; topics: string[] };
  /** What it may call over gRPC; every other call from it is refused. */
  calls: CallEdges;
}

export interface GatewayEntry {
  name: 'gateway';
  httpPort: number;
  calls: CallEdges;
}

/** A generation worker as its own process: no API of its own (gRPC health only), the image service's database. */
export interface WorkerEntry {
  name: 'image-worker';
  calls: CallEdges;
}

const allTopics = Object.values(topics);

// Commands that need an answer now go over gRPC; facts go over the bus. So only the gateway, the
// image service (spending and refunding tokens for a generation while the user waits) and its
// workers (refunding a failed job) call anyone; identity, ledger, billing and analytics learn
// everything else from events. The gateway is the API's one front: every route ends in some
// service's method, so it may call them all (it is also the one caller with the admin's Adjust).
export const registry: { gateway: GatewayEntry; 'image-worker': WorkerEntry } & {
  [N in ServiceName]: ServiceEntry & { name: N };
} = {
  gateway: {
    name: 'gateway',
    httpPort: 8080,
    calls: { identity: 'all', ledger: 'all', image: 'all', billing: 'all', analytics: 'all' },
  },
  // A worker only gives back the tokens of a job that failed (services/image/src/app/generation-worker.ts): never
  // Spend, never Adjust, never Credit.
  'image-worker': { name: 'image-worker', calls: { ledger: ['Refund'] } },
  identity: {
    name: 'identity',
    grpcPort: 50051,
    grpcPackage: 'flatlay.identity.v1',
    publishes: [topics.identityUser],
    consumes: { group: 'identity', topics: [topics.billingSubscription] },
    calls: {},
  },
  ledger: {
    name: 'ledger',
    grpcPort: 50052,
    grpcPackage: 'flatlay.ledger.v1',
    publishes: [topics.ledgerAccount],
    consumes: { group: 'ledger', topics: [topics.identityUser, topics.billingPayment, topics.billingSubscription] },
    calls: {},
  },
  image: {
    name: 'image',
    grpcPort: 50053,
    grpcPackage: 'flatlay.image.v1',
    publishes: [topics.imageGeneration, topics.imageGenerationRequested],
    // analytics.settings.v1: the operator's generative key, kept for the workers too (ADR 0103).
    consumes: { group: 'image', topics: [topics.identityUser, topics.billingPayment, topics.analyticsSettings] },
    // Spend for a generation or an unlock, Refund when a job fails (its in-process worker).
    calls: { ledger: ['Spend', 'Refund'] },
  },
  billing: {
    name: 'billing',
    grpcPort: 50054,
    grpcPackage: 'flatlay.billing.v1',
    publishes: [topics.billingPayment, topics.billingSubscription],
    consumes: { group: 'billing', topics: [topics.identityUser, topics.analyticsSettings] },
    calls: {},
  },
  analytics: {
    name: 'analytics',
    grpcPort: 50055,
    grpcPackage: 'flatlay.analytics.v1',
    publishes: [topics.analyticsSettings],
    consumes: { group: 'analytics', topics: allTopics.filter((t) => t !== topics.imageGenerationRequested) },
    calls: {},
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

export const isCallerName = (name: string): name is CallerName => (callerNames as readonly string[]).includes(name);

/** The services `caller` may call at all (some method of each): the network policy's edges. */
export function calleesOf(caller: CallerName): ServiceName[] {
  const calls = registry[caller].calls;
  return serviceNames.filter((s) => calls[s] !== undefined);
}

/**
 * Whether `caller` may call `callee`: its method `method` (as named in the .proto, e.g. `Adjust`),
 * or, without a method, any method of it.
 */
export function mayCall(caller: string, callee: ServiceName, method?: string): boolean {
  if (!isCallerName(caller)) return false;
  const allowed = registry[caller].calls[callee];
  if (allowed === undefined) return false;
  return method === undefined || allowed === 'all' || allowed.includes(method);
}

/** The service whose API a fully qualified gRPC service name belongs to (flatlay.ledger.v1.LedgerService -> ledger). */
export function serviceOfGrpcName(grpcServiceName: string): ServiceName | undefined {
  return serviceNames.find((n) => grpcServiceName.startsWith(`${registry[n].grpcPackage}.`));
}
