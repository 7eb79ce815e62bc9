// A local stand-in for an OpenAI-compatible image edit API (POST /v1/images/edits, multipart),
// served over real HTTP: it records each request it parsed, and answers as `mode` says.
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';

export type FakeMode = 'b64' | 'url' | 'error' | 'not-json' | 'not-an-image' | 'hang';

export interface SeenEdit {
  authorization: string | undefined;
  model: string;
  prompt: string;
  n: string;
  imageType: string;
  imageName: string;
  image: Buffer;
}

export interface FakeImageEditApi {
  /** The API root to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  mode: FakeMode;
  seen: SeenEdit[];
  /** The image it answers with: 1024 x 768, pure red (easy to tell from any local result). */
  answer: Buffer;
  close(): Promise<void>;
}

export async function startFakeImageEditApi(): Promise<FakeImageEditApi> {
  const answer = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  const api: Omit<FakeImageEditApi, 'baseUrl' | 'close'> = { mode: 'b64', seen: [], answer };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/files/edited.png') {
      res.setHeader('content-type', 'image/png');
      res.end(answer);
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/images/edits') {
      res.statusCode = 404;
      res.end();
      return;
    }
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
    const image = form.get('image') as File;
    api.seen.push({
      authorization: req.headers.authorization,
      model: String(form.get('model')),
      prompt: String(form.get('prompt')),
      n: String(form.get('n')),
      imageType: image.type,
      imageName: image.name,
      image: Buffer.from(await image.arrayBuffer()),
    });
    res.setHeader('content-type', 'application/json');
    switch (api.mode) {
      case 'b64':
        res.end(JSON.stringify({ created: 1, data: [{ b64_json: answer.toString('base64') }] }));
        return;
      case 'url': {
        const { port } = server.address() as { port: number };
        res.end(JSON.stringify({ created: 1, data: [{ url: `http://127.0.0.1:${port}/files/edited.png` }] }));
        return;
      }
      case 'error':
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }));
        return;
      case 'not-json':
        res.end('<html>gateway timeout</html>');
        return;
      case 'not-an-image':
        res.end(JSON.stringify({ created: 1, data: [{ b64_json: Buffer.from('not an image').toString('base64') }] }));
        return;
      case 'hang':
        return; // never answers: the caller's deadline must end it
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return Object.assign(api, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  }) as FakeImageEditApi;
}
