// Types of spec-files.mjs for the TypeScript tests and vitest.config.ts (tsconfig.tests.json does not read JavaScript).
export declare const SPEC_ROOTS: readonly string[];
export declare const SPEC_FILE: RegExp;
export declare function specFiles(root: string, options?: { pattern?: RegExp; roots?: readonly string[] }): string[];
