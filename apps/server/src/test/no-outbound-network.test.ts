import net from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the test network guard', () => {
  it('refuses connections to hosts other than this machine', async () => {
    expect(() => net.connect({ host: '8.8.8.8', port: 53 })).toThrow(
      /Outbound network access in tests is not allowed/,
    );
    expect(() => net.connect(443, 'example.com')).toThrow(/not allowed/);
    await expect(fetch('https://api.telegram.org/')).rejects.toThrow();
  });

  it('lets local connections through', async () => {
    const server = net.createServer((socket) => socket.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(text).toBe('hi');
    server.close();
  });
});
