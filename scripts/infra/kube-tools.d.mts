// Types for the part of kube-tools.mjs that TypeScript code (its unit test) uses.
export function goEnv(): NodeJS.ProcessEnv;
