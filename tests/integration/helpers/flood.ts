import http from 'node:http';

/*
 * Many visitors at once, each from an address of its own: a real source address (every
 * 127.0.0.0/8 address is local on Linux, so a socket can be bound to 127.0.0.7 and the server sees
 * that machine), or an X-Forwarded-For address for a server behind a trusted proxy.
 */

export interface Sender {
  /** The socket's own address (a loopback address). */
  localAddress?: string;
  /** The address a trusted proxy would forward. */
  forwardedFor?: string;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One keep-alive connection pool per source address, as separate machines would have. */
const agents = new Map<string, http.Agent>();
function agentFor(localAddress: string | undefined): http.Agent {
  const key = localAddress ?? '';
  let agent = agents.get(key);
  if (!agent) {
    // Idle connections are dropped long before the server's keep-alive timeout (65 s) could close one
    // just as a request is written on it.
    agent = new http.Agent({ keepAlive: true, maxSockets: 4, timeout: 2_000 });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the pooled connections (after the test's server is done with them). */
export function closeSenders(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** POSTs a JSON body to `path` of the server at `baseUrl`, from `sender`. */
export function postJson(baseUrl: string, path: string, body: unknown, sender: Sender = {}): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: sender.localAddress,
        agent: agentFor(sender.localAddress),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          origin: baseUrl,
          ...(sender.forwardedFor ? { 'x-forwarded-for': sender.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Runs `task` for every item, at most `concurrency` at a time; answers in the items' order. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The nth distinct loopback address after 127.0.0.1 (127.1.0.1, 127.1.0.2, … for large n). */
export function loopback(n: number): string {
  return n < 250 ? `127.0.0.${n + 2}` : `127.1.${Math.floor((n - 250) / 250)}.${((n - 250) % 250) + 1}`;
}

/** Tallies answers by status code: { 201: 3300, 429: 11 }. */
export function byStatus(answers: readonly Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}
