import { checkHealth, type HealthState } from '@flatlay/platform';

export interface ServiceAddress {
  name: string;
  address: string;
}

type States = Array<[string, HealthState]>;

/**
 * Each service's health as /healthz reports it, asked at most once per `maxAgeMs` whatever the
 * request rate (one check opens a connection to every service): probes and load balancers that
 * poll it share one answer, at most that old. Concurrent callers wait for the same round;
 * `fresh()` answers the last round's states at once while they are that new, else undefined.
 */
export function serviceHealth(
  services: ServiceAddress[],
  {
    maxAgeMs = 1_000,
    check = checkHealth,
  }: { maxAgeMs?: number; check?: (address: string) => Promise<HealthState> } = {},
): (() => Promise<States>) & { fresh(): States | undefined } {
  let last: { at: number; states: States } | undefined;
  let round: Promise<States> | undefined;
  const fresh = () => (last && Date.now() - last.at < maxAgeMs ? last.states : undefined);
  const health = () => {
    const states = fresh();
    if (states) return Promise.resolve(states);
    round ??= Promise.all(services.map(async (s) => [s.name, await check(s.address)] as [string, HealthState]))
      .then((states) => {
        last = { at: Date.now(), states };
        return states;
      })
      .finally(() => {
        round = undefined;
      });
    return round;
  };
  return Object.assign(health, { fresh });
}
