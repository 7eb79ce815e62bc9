// Runs before every web component test (vitest.config.ts `setupFiles`, jsdom files only). Testing
// Library's findBy* and waitFor give up after 1 s by default, which a busy machine can exceed
// while rendering a large page (a fresh-clone `npm test` failed that way): they are waits for the
// screen to settle, not timing assertions, so their ceiling is raised to 15 s. A real failure
// still fails, only later.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 15_000 });
