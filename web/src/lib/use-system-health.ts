import { useEffect, useState } from 'react';

export interface SystemHealth {
  status: 'ok' | 'unavailable' | 'unknown';
  services: Record<string, string>;
}

/** Polls /healthz so the page can say honestly whether the service is up. */
export function useSystemHealth(intervalMs = 5000): SystemHealth {
  const [health, setHealth] = useState<SystemHealth>({ status: 'unknown', services: {} });
  useEffect(() => {
    let alive = true;
    const load = () =>
      fetch('/healthz')
        .then((r) => r.json() as Promise<SystemHealth>)
        .then((h) => alive && setHealth(h))
        .catch(() => alive && setHealth({ status: 'unavailable', services: {} }));
    load();
    const timer = setInterval(load, intervalMs);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [intervalMs]);
  return health;
}
