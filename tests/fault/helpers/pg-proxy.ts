import net from 'node:net';

/**
 * A TCP proxy to Postgres that can be cut (every socket dropped, new ones refused) and restored,
 * or silenced: connections stay open but nothing passes either way, and new ones are accepted and
 * never answered, as when the database's host stops answering on the network.
 */
export function pgProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let silent = false;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (silent) {
      client.resume();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {});
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    client.pipe(upstream).pipe(client);
  });
  let port = 0;
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    async start() {
      await listen();
      port = (server.address() as net.AddressInfo).port;
      return port;
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: listen,
    silence() {
      silent = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.resume();
        upstream.resume();
      }
    },
    /** Drops what silence left open (the end of a test). */
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
