// The limit of `npm run bench:api`: bare Express answering the balance's JSON, nothing else, in its
// own process. Every path answers 200 {"balance":200}. Prints its port once listening.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.use((_req, res) => res.json({ balance: 200 }));
const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${/** @type {import('node:net').AddressInfo} */ (server.address()).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
