import type http from 'node:http';

interface InFlight {
  answers: Set<http.ServerResponse>;
  draining: boolean;
}

const servers = new WeakMap<http.Server, InFlight>();

function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader('connection', 'close');
}

/**
 * Keeps the set of answers still being written, so a graceful stop can tell each of their
 * clients that the connection closes after the answer (`Connection: close`) instead of closing a
 * kept-alive connection under a client that is about to reuse it (which the client sees as a reset).
 * Runs before every other request listener.
 */
export function trackInFlight(server: http.Server): void {
  const state: InFlight = { answers: new Set(), draining: false };
  servers.set(server, state);
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (state.draining) closeAfter(res);
    state.answers.add(res);
    res.once('close', () => state.answers.delete(res));
  });
}

/** From now on every answer, those in flight included, closes its connection once it is sent. */
export function closeAfterAnswers(server: http.Server): void {
  const state = servers.get(server);
  if (!state) return;
  state.draining = true;
  for (const res of state.answers) closeAfter(res);
}
