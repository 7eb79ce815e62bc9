import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './api/queries';
import { AppRoot } from './app/AppRoot';
import './styles.css';

const queryClient = createQueryClient();
const root = document.getElementById('root')!;
const app = <AppRoot queryClient={queryClient} inRouter={(tree) => <BrowserRouter>{tree}</BrowserRouter>} />;

// A public page arrives rendered by the build (ADR 0714): React takes over its HTML. Every other
// path gets the empty shell and renders from nothing.
// The page is already on screen, so its hydration is not urgent: started in a transition, React
// hydrates it in slices of a few milliseconds and lets the browser paint and answer input between
// them, instead of one task as long as the whole page (a long task on a phone's CPU, the total
// blocking time Lighthouse scores; ADR 0717). A click meanwhile hydrates the part it lands on first.
if (root.hasChildNodes()) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
