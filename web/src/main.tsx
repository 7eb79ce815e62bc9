import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './api/queries';
import { AppRoot } from './app/AppRoot';
import { hydrateInParts } from './lib/hydrated';
import './styles.css';

const queryClient = createQueryClient();
const root = document.getElementById('root')!;
const app = <AppRoot queryClient={queryClient} inRouter={(tree) => <BrowserRouter>{tree}</BrowserRouter>} />;

// A public page arrives rendered by the build (ADR 0714): the app takes over its HTML. Every other
// path gets the empty shell and renders from nothing.
// The build runs on Preact (ADR 0718), which hydrates synchronously: `hydrateInParts` (ADR 0719) takes
// the page over in short tasks, the providers first, then each `HydrateApart` in its own task, with
// the stores answering their server snapshot as React does by itself, so the first render is the
// build's. The first pass waits for a task after this module's evaluation, so that the two are not
// one long task. (React's `startTransition` of ADR 0717 is gone: on Preact it ran its callback at once.)
if (root.hasChildNodes()) setTimeout(() => void hydrateInParts(() => void hydrateRoot(root, app)), 0);
else createRoot(root).render(app);
