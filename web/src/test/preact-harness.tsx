// What web/src/app/hydration.unit.spec.tsx needs of the app on Preact, as the production build runs
// it (ADR 0718). The test builds this file with the build's aliases (Vite, every dependency bundled)
// and imports the bundle: vitest's own module loading would leave the dependencies' `react` React.
import 'preact/debug';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '../api/queries';
import { AppRoot } from '../app/AppRoot';

export { options } from 'preact';
export { act } from 'preact/test-utils';
export { createRoot, hydrateRoot } from 'react-dom/client';
export { hydrateInParts, partsAway, partsWaiting, whileHydrating } from '../lib/hydrated';

/** The browser's tree (main.tsx), made by this bundle's JSX runtime: Preact's. */
export const browserApp = () => (
  <AppRoot queryClient={createQueryClient()} inRouter={(tree) => <BrowserRouter>{tree}</BrowserRouter>} />
);
