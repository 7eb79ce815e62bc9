import { checkHealth, type HealthState } from '@flatlay/platform';

export interface ServiceAddress {
  name: string;
  address: string;
}

/**
 * Each service's health as /healthz reports it, asked at most once per `maxAgeMs` whatever the
 * request rate (one check opens a connection to every service): probes and load balancers that
 * poll it share one answer, at most that old. Concurrent callers wait for the same round.
 */
export function serviceHealth(
  services: ServiceAddress[],
  {
    maxAgeMs = 1_000,
    check = checkHealth,
  }: { maxAgeMs?: number; check?: (address: string) => Promise<HealthState> } = {},
): () => Promise<Array<[string, HealthState]>> {
  let last: { at: number; states: Array<[string, HealthState]> } | undefined;
  let round: Promise<Array<[string, HealthState]>> | undefined;
  return () => {
    if (last && Date.now() - last.at < maxAgeMs) return Promise.resolve(last.states);
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
}
