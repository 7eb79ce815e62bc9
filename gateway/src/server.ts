import type { Server } from 'node:http';
import type { Express } from 'express';

/** Listens, and on stop closes idle keep-alive sockets so shutdown is not held up by them. */
export function listen(
  app: Express,
  host: string,
  port: number,
): Promise<{ server: Server; port: number; stop(): Promise<void> }> {
  return new Promise((ok, fail) => {
    const server = app.listen(port, host, (error?: Error) => {
      if (error) return fail(error);
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      ok({
        server,
        port: bound,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 5_000).unref();
          }),
      });
    });
    server.on('error', fail);
  });
}
