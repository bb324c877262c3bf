// A flood of clients opening CONNECT tunnels as fast as they can, in its own process so that the
// gateway under test has its own event loop. Prints one JSON line: per attempt, the time from starting
// to connect to the first byte of the answer (or null: no answer within the give-up time), and the
// answers' status codes.
// Usage: node flood.mjs '{"port":1,"target":"127.0.0.1:2","auth":"Basic ...","clients":3000,
//   "durationMs":4000,"giveUpMs":15000,"addresses":60}'
import { connect } from 'node:net';

const options = JSON.parse(process.argv[2] ?? '{}');
const request = `CONNECT ${options.target} HTTP/1.1\r\nHost: ${options.target}\r\nProxy-Authorization: ${options.auth}\r\n\r\n`;
const latencies = [];
const statuses = {};
let unanswered = 0;
const stopAt = Date.now() + options.durationMs;

function attempt(client) {
  return new Promise((resolve) => {
    const started = performance.now();
    let isDone = false;
    const finish = (status) => {
      if (isDone) {
        return;
      }
      isDone = true;
      clearTimeout(giveUp);
      socket.destroy();
      if (status === null) {
        unanswered += 1;
      } else {
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      resolve();
    };
    const giveUp = setTimeout(() => finish(null), options.giveUpMs);
    // Clients come from many loopback addresses, as a crowd of customers would.
    const localAddress = `127.0.${3 + Math.floor(client / 250)}.${1 + (client % options.addresses)}`;
    const socket = connect({ port: options.port, host: '127.0.0.1', localAddress }, () =>
      socket.write(request),
    );
    socket.once('data', (chunk) => finish(chunk.toString('latin1').split(' ')[1] ?? '?'));
    socket.on('error', () => finish('error'));
    socket.on('close', () => finish('closed'));
  });
}

async function client(index) {
  while (Date.now() < stopAt) {
    await attempt(index);
  }
}

await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
process.stdout.write(`${JSON.stringify({ latencies, statuses, unanswered })}\n`);
