// Minimal loopback clients for readiness checks (raw TCP request/response, HTTP GET), so the
// health checks need no client libraries: this runs before `npm install`.

import http from 'node:http';
import net from 'node:net';

/**
 * Sends `payload` and answers the bytes received once `until` accepts them.
 * @param {number} port @param {string | Uint8Array} payload
 * @param {{ until: (received: Buffer) => boolean, timeoutMs?: number }} opts
 * @returns {Promise<Buffer>}
 */
export function tcpExchange(port, payload, { until, timeoutMs = 2000 }) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    /** @param {Error | null} err @param {Buffer} [v] */
    const done = (err, v) => {
      clearTimeout(t);
      sock.destroy();
      err ? reject(err) : resolve(/** @type {Buffer} */ (v));
    };
    const t = setTimeout(() => done(new Error('timeout')), timeoutMs);
    sock.on('connect', () => sock.write(payload));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (until(buf)) done(null, buf);
    });
    sock.on('error', (e) => done(e));
    sock.on('close', () => done(new Error('closed')));
  });
}

/**
 * @param {string} url @param {Record<string, string>} [headers] @param {number} [timeoutMs]
 * @returns {Promise<{ status: number | undefined, body: string }>}
 */
export function httpGet(url, headers = {}, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, timeout: timeoutMs }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}
