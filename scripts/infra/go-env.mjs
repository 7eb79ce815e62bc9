// The environment of the infrastructure's Go module builds (kube-tools.mjs).

/**
 * Read when a build starts: installGo (apt.mjs) may put the Go toolchain it fetched on this
 * process's PATH after the modules were loaded, and a copy taken at load time sent `go` to a PATH
 * without it (spawn go ENOENT on a machine with no Go of its own).
 */
export const goEnv = () => ({ ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'on', GOWORK: 'off' });
