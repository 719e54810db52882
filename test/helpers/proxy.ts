// A real HTTP proxy on 127.0.0.1 for the network tests: CONNECT tunnels (https targets) and
// absolute-form forwarding (http targets, as curl sends them). Every host it is asked for is reached at
// 127.0.0.1 on the port asked for, so `crm.test` works without DNS. It records what it carried and,
// given `credentials`, answers 407 to requests without the matching Proxy-Authorization; given
// `refuseConnect`, it answers every CONNECT with that status.
import { createServer, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface TestProxy {
  /** http://127.0.0.1:port (no credentials). */
  readonly url: string;
  readonly port: number;
  /** `host:port` of every CONNECT tunnel opened. */
  readonly tunnels: string[];
  /** Absolute URLs of every request forwarded. */
  readonly forwarded: string[];
  /** Requests answered 407, and CONNECTs refused by `refuseConnect`. */
  readonly refused: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** `user:password` the proxy wants (407 without it). */
  credentials?: string;
  /** Answer every CONNECT with this status (403: a policy refusing the host; 502: it cannot reach it). */
  refuseConnect?: number;
}

export async function startProxy(options: ProxyOptions = {}): Promise<TestProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  let refused = 0;
  const expected =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const allowed = (req: IncomingMessage) => {
    if (expected === undefined || req.headers['proxy-authorization'] === expected) return true;
    refused += 1;
    return false;
  };

  const server = createServer((req, res) => {
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '/');
    forwarded.push(target.href);
    const { 'proxy-authorization': _, 'proxy-connection': __, ...headers } = req.headers;
    const upstream = request(
      { host: '127.0.0.1', port: target.port || 80, method: req.method, path: target.pathname, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (!allowed(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    if (options.refuseConnect !== undefined) {
      refused += 1;
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const where = req.url ?? '';
    tunnels.push(where);
    const port = Number(where.slice(where.lastIndexOf(':') + 1));
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    tunnels,
    forwarded,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
