import net from 'node:net';

/**
 * Tests may only talk to this machine: our database and the local fakes of Telegram, Google and
 * SMTP. Any other connection (a forgotten fake calling a real provider) fails the test loudly.
 */
const allowedHosts = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);
const originalConnect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  // net.connect() hands Socket#connect its arguments pre-normalised, as [options, callback].
  const [first] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  const options = (typeof first === 'object' && first !== null ? first : {}) as {
    host?: string;
    path?: string;
  };
  const host =
    typeof first === 'number' ? (typeof args[1] === 'string' ? args[1] : 'localhost') : options.host;
  const isUnixSocket = typeof first === 'string' || Boolean(options.path);
  if (!isUnixSocket && host !== undefined && !allowedHosts.has(host) && !host.startsWith('127.')) {
    throw new Error(`Outbound network access in tests is not allowed (tried ${host}). Use a local fake.`);
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
