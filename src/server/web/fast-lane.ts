import type http from 'node:http';
import type net from 'node:net';

/**
 * A fast lane in front of node:http for the request that makes nearly all of a public site's
 * traffic: a plain GET or HEAD of a prerendered file. Node's HTTP stack (request and response
 * objects, header validation, streams) costs more than the work itself, so such a request, when it
 * arrives whole and in the simplest form, is parsed here and answered with headers that were
 * serialised when the release was loaded. Anything else — another method, a body, an upgrade, a
 * head split across packets, a header the lane does not need to understand twice, a file that is
 * not in the release — hands the connection to node:http, with the bytes not yet answered, for
 * the rest of its life. The lane only ever answers requests that node:http would answer the same.
 */

/** The headers the lane reads; every other well-formed header is ignored, as node:http does. */
interface LaneHeaders {
  'accept-encoding'?: string;
  /** Read only to see whether a session cookie is there (public-api-cache.ts). */
  cookie?: string;
  'if-none-match'?: string;
  'x-forwarded-proto'?: string;
}

export interface LaneRequest {
  method: 'GET' | 'HEAD';
  /** The origin-form request target, query included. */
  target: string;
  headers: LaneHeaders;
  /** The client asked to close the connection after this response. */
  close: boolean;
  /** Offset just past the request's blank line. */
  end: number;
}

/** The status line and headers (each line ending in CRLF, without Date and Connection) and body. */
export interface LaneResponse {
  head: Buffer;
  body?: Buffer;
}

/** As node:http's default `maxHeaderSize`: a larger head goes to node:http, which answers 431. */
const MAX_HEAD = 16 * 1024;
const REQUEST_LINE = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
// RFC 9110 field-name token; value: visible characters, obs-text, spaces and tabs only.
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/;
const READ = new Set<string>(['host', 'connection', 'accept-encoding', 'cookie', 'if-none-match', 'x-forwarded-proto']);
/** Headers that mean a body, a protocol switch or an interim response: node:http's business. */
const HAND_OFF = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'http2-settings']);

/**
 * Parses one request head at `start`: the request when it is complete and simple, otherwise
 * undefined (incomplete, malformed or unusual: node:http decides what it is).
 */
export function parseSimpleRequest(chunk: Buffer, start: number): LaneRequest | undefined {
  const blank = chunk.indexOf('\r\n\r\n', start, 'latin1');
  if (blank === -1 || blank - start > MAX_HEAD) return undefined;
  const lines = chunk.toString('latin1', start, blank).split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]!);
  if (!line) return undefined;
  const seen: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const header = HEADER_LINE.exec(lines[i]!);
    if (!header) return undefined; // includes a stray CR or LF and obsolete line folding
    const name = header[1]!.toLowerCase();
    if (HAND_OFF.has(name)) return undefined;
    if (!READ.has(name)) continue;
    if (name in seen) return undefined; // a repeated header is joined or refused by node:http
    seen[name] = header[2]!;
  }
  if (seen.host === undefined) return undefined;
  const connection =
    seen.connection
      ?.toLowerCase()
      .split(',')
      .map((t) => t.trim()) ?? [];
  if (connection.includes('upgrade')) return undefined;
  return {
    method: line[1] as 'GET' | 'HEAD',
    target: line[2]!,
    headers: {
      'accept-encoding': seen['accept-encoding'],
      cookie: seen.cookie,
      'if-none-match': seen['if-none-match'],
      'x-forwarded-proto': seen['x-forwarded-proto'],
    },
    close: connection.includes('close'),
    end: blank + 4,
  };
}

/**
 * `date`, `connection` and `keep-alive` lines plus the blank line, rebuilt once a second; as
 * node:http writes them, a keep-alive timeout of 0 (none) is not announced.
 */
function trailerLines(keepAliveMs: number) {
  const keepAlive = keepAliveMs ? `keep-alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n` : '';
  let second = -1;
  let keep = Buffer.alloc(0);
  let close = Buffer.alloc(0);
  return (closing: boolean): Buffer => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      const date = `date: ${new Date(now * 1000).toUTCString()}\r\n`;
      keep = Buffer.from(`${date}connection: keep-alive\r\n${keepAlive}\r\n`, 'latin1');
      close = Buffer.from(`${date}connection: close\r\n\r\n`, 'latin1');
    }
    return closing ? close : keep;
  };
}

/**
 * Puts the lane in front of `server`'s own connection handling. `answer` returns the response
 * for a simple request, or undefined to let node:http (and so Astro) answer it. Call before
 * `listen`. The server's close, `closeIdleConnections` and `closeAllConnections` cover the
 * lane's connections too.
 */
export function installFastLane(server: http.Server, answer: (req: LaneRequest) => LaneResponse | undefined): void {
  const nodeListeners = server.listeners('connection') as ((socket: net.Socket) => void)[];
  if (nodeListeners.length !== 1) throw new Error('installFastLane: expected node:http’s one connection listener');
  const nodeConnection = nodeListeners[0]!;
  server.removeListener('connection', nodeConnection);
  const inLane = new Set<net.Socket>();
  let trailer = trailerLines(server.keepAliveTimeout);
  let trailerFor = server.keepAliveTimeout;

  server.on('connection', (socket: net.Socket) => {
    inLane.add(socket);
    // As node:http: headersTimeout until a request has come, then keepAliveTimeout between requests.
    let idleMs = server.headersTimeout;
    socket.setTimeout(idleMs);

    const onTimeout = () => socket.destroy();
    const onError = () => socket.destroy();
    // node:http servers allow half-open sockets; a client that is done sending gets our end too.
    const onEnd = () => socket.end();
    const leave = () => {
      inLane.delete(socket);
      socket.removeListener('data', onData);
      socket.removeListener('timeout', onTimeout);
      socket.removeListener('error', onError);
      socket.removeListener('end', onEnd);
      socket.setTimeout(0);
    };
    const handOff = (rest: Buffer) => {
      leave();
      socket.pause();
      if (rest.length) socket.unshift(rest);
      nodeConnection.call(server, socket);
      // The bytes put back are parsed on the next tick, before any later read reaches node:http.
      socket.resume();
    };
    function onData(chunk: Buffer): void {
      // A client that does not read its responses is node:http's to slow down.
      if (socket.writableNeedDrain) return handOff(chunk);
      for (let at = 0; at < chunk.length;) {
        const req = parseSimpleRequest(chunk, at);
        const res = req && answer(req);
        if (!req || !res) return handOff(chunk.subarray(at));
        if (server.keepAliveTimeout !== trailerFor) {
          trailerFor = server.keepAliveTimeout;
          trailer = trailerLines(trailerFor);
        }
        socket.cork();
        socket.write(res.head);
        socket.write(trailer(req.close));
        if (res.body && req.method === 'GET') socket.write(res.body);
        socket.uncork();
        if (req.close) {
          // Nothing more is read; the error and idle handlers stay until the client has gone.
          socket.removeListener('data', onData);
          socket.end();
          return;
        }
        at = req.end;
        const keepAliveMs = server.keepAliveTimeout || server.headersTimeout;
        if (keepAliveMs !== idleMs) socket.setTimeout((idleMs = keepAliveMs));
        if (socket.writableNeedDrain && at < chunk.length) return handOff(chunk.subarray(at));
      }
    }
    socket.on('data', onData);
    socket.on('timeout', onTimeout);
    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.once('close', () => inLane.delete(socket));
  });

  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  // Between two chunks a lane connection has nothing in flight: it is idle once its writes left.
  server.closeIdleConnections = () => {
    for (const socket of inLane) {
      if (socket.writableLength) socket.end();
      else socket.destroy();
    }
    closeIdle();
  };
  server.closeAllConnections = () => {
    for (const socket of inLane) socket.destroy();
    closeAll();
  };
}
