import Fastify from 'fastify';

/** The ceiling: a bare Fastify route on this machine, same runtime, no database, no auth. */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const port = Number(process.env.PORT ?? 0);
app.listen({ port, host: '127.0.0.1' }).then((address) => {
  process.stdout.write(`LISTENING ${address}\n`);
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
