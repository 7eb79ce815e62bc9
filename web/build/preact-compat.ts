import type { Alias } from 'vite';

/**
 * The production build runs the app on Preact through `preact/compat` (ADR 0718): every import of
 * React's packages, the app's and its dependencies' (Radix, react-router, react-query, recharts and
 * react-redux), resolves to Preact's. Exact names only: `react-dom/client` must not become
 * `preact/compat/client` by a prefix match of `react-dom`, and a package such as `react-is` or
 * `react-redux` is not React.
 *
 * The client build (vite.config.ts) and the prerendering's server build (./prerender.ts) use the same
 * list, so the pages are rendered by the renderer that hydrates them. The component tests
 * (vitest.config.ts at the root) do not: they run on React.
 */
export const PREACT_COMPAT_ALIASES: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  // compat's runtime imports preact/compat first, so its hooks (className, onChange, refs) are set
  // before the first element is made.
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * The build's warning handler: react-router reads React 19's `use` and `useOptimistic` from the
 * React namespace and falls back when they are missing (its RSC server path, and optimistic state as
 * plain state), which compat does not export; the bundler warns that they are always undefined.
 * Those two are expected on Preact and left out of the build's output; every other warning passes.
 */
export function onCompatWarning(
  warning: { code?: string; id?: string; message: string },
  warn: (warning: { code?: string; id?: string; message: string }) => void,
): void {
  if (
    warning.code === 'IMPORT_IS_UNDEFINED' &&
    /[\\/]react-router[\\/]/.test(warning.id ?? '') &&
    /Import `(use|useOptimistic)` will always be undefined/.test(warning.message)
  )
    return;
  warn(warning);
}
