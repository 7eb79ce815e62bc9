import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './api/queries';
import { AppRoot } from './app/AppRoot';
import { whileHydrating } from './lib/hydrated';
import './styles.css';

const queryClient = createQueryClient();
const root = document.getElementById('root')!;
const app = <AppRoot queryClient={queryClient} inRouter={(tree) => <BrowserRouter>{tree}</BrowserRouter>} />;

// A public page arrives rendered by the build (ADR 0714): the app takes over its HTML. Every other
// path gets the empty shell and renders from nothing.
// The build runs on Preact (ADR 0718), which hydrates in one synchronous pass: `startTransition` is
// React's (ADR 0717: hydration in slices) and runs its callback at once on Preact. `whileHydrating`
// makes the stores read through `useStore` answer their server snapshot during that pass, as React
// does by itself, so the first render is the build's.
if (root.hasChildNodes()) whileHydrating(() => startTransition(() => void hydrateRoot(root, app)));
else createRoot(root).render(app);
