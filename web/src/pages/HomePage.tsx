import { useSystemHealth } from '../lib/use-system-health';

export function HomePage() {
  const health = useSystemHealth();
  return (
    <main className="home">
      <h1>Flatlay</h1>
      <p className="lead">
        Turn a casual photo of clothing, shoes, a bag or jewellery into a clean, level, centred studio flat-lay, ready
        for a marketplace.
      </p>
      <section aria-label="Service status" className="status">
        <h2>
          Service status:{' '}
          {health.status === 'ok'
            ? 'all systems running'
            : health.status === 'unknown'
              ? 'checking…'
              : 'starting or unavailable'}
        </h2>
        <ul>
          {Object.entries(health.services).map(([name, state]) => (
            <li key={name} data-state={state}>
              {name}: {state === 'SERVING' ? 'ready' : state.toLowerCase().replace('_', ' ')}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
