/**
 * A real SMTP server in a process of its own, steered by its parent over IPC: it reports every
 * message it has accepted, and can be told to refuse mail for a while ('refuse': 451 to every
 * recipient), to reject it for good ('reject': 550, no such mailbox) or to hold a message without answering ('hold'), so the parent can kill it in the
 * middle of a delivery. A message counts as received only once the server has answered 250.
 */
import { SMTPServer } from 'smtp-server';

let mode = 'accept';
const held = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(_address, _session, done) {
    if (mode === 'refuse') {
      const err = new Error('Mailbox temporarily unavailable, try again later');
      err.responseCode = 451;
      return done(err);
    }
    if (mode === 'reject') {
      const err = new Error('No such user here');
      err.responseCode = 550;
      return done(err);
    }
    done();
  },
  onData(stream, session, done) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      // Reported before the 250 answer: once the client has its answer, a `sync` reply proves the
      // parent has the report too (IPC messages arrive in order).
      const accept = () => {
        process.send?.({
          type: 'message',
          from: session.envelope.mailFrom?.address ?? '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      };
      if (mode === 'hold') {
        held.push(accept);
        process.send?.({ type: 'held' });
      } else accept();
    });
  },
});

process.on('message', (msg) => {
  if (msg?.type === 'mode') mode = msg.mode;
  if (msg?.type === 'release') while (held.length) held.shift()();
  if (msg?.type === 'sync') process.send?.({ type: 'synced', n: msg.n });
});
// A restart asks for the old port, which another process of the test run may have taken since.
server.on('error', (err) => {
  process.send?.({ type: 'listen-failed', code: err.code });
  process.exit(1);
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: server.server.address().port });
});
