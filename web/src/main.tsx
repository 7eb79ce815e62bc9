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
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
