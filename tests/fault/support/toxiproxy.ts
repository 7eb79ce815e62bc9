// The fault tier's network faults: Toxiproxy's HTTP API (github.com/Shopify/toxiproxy, v2.5.0),
// driven with plain fetch. Each link between two parts of the product is a named proxy.

export type ToxicType = 'latency' | 'reset_peer' | 'slow_close' | 'timeout';

export interface Toxic {
  type: ToxicType;
  /** Which way the bytes it slows or cuts travel: towards the client (downstream) or the server. */
  stream?: 'downstream' | 'upstream';
  attributes: Record<string, number>;
}

export class Toxiproxy {
  constructor(private readonly url: string) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** A proxy named `name` listening on 127.0.0.1:`listenPort` in front of `upstream` (host:port). */
  async link(name: string, listenPort: number, upstream: string): Promise<string> {
    await this.call('DELETE', `/proxies/${name}`).catch(() => undefined);
    await this.call('POST', '/proxies', { name, listen: `127.0.0.1:${listenPort}`, upstream, enabled: true });
    return `127.0.0.1:${listenPort}`;
  }

  /** Cuts the link (every open connection closed, new ones refused) or restores it. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.call('POST', `/proxies/${name}`, { enabled });
  }

  async addToxic(proxy: string, toxicName: string, toxic: Toxic): Promise<void> {
    await this.call('POST', `/proxies/${proxy}/toxics`, {
      name: toxicName,
      stream: toxic.stream ?? 'downstream',
      toxicity: 1,
      type: toxic.type,
      attributes: toxic.attributes,
    });
  }

  async removeToxic(proxy: string, toxicName: string): Promise<void> {
    await this.call('DELETE', `/proxies/${proxy}/toxics/${toxicName}`);
  }

  /** Every proxy enabled again with no toxics (after each fault). */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }
}
