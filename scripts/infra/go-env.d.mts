export function goEnv(): NodeJS.ProcessEnv;
