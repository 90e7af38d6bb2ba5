import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MODEL_PHOTOS_PER_REQUEST } from '@mirra/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { multipartBody, twoToneImage, type MultipartPart } from '../../test/images.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * A real listening server and a client holding one keep-alive connection, as a proxy in front of
 * the API would: a request that leaves part of its body unread must not hold up the next one.
 */
let t: TestApp;
let origin: string;
let person: Person;
let agent: http.Agent;

beforeAll(async () => {
  t = await createTestApp({ env: { UPLOAD_MAX_MB: '2', RATE_LIMIT_UPLOADS_PER_USER: '1000' } });
  person = await signedInPerson(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());
beforeEach(() => {
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});
afterEach(() => agent.destroy());

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  socket: Socket;
}

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(`${origin}${path}`, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          connection: response.headers.connection,
          body: Buffer.concat(chunks).toString(),
          socket: request.socket!,
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

const postMultipart = (path: string, parts: MultipartPart[], extraHeaders: Record<string, string> = {}) => {
  const body = multipartBody(parts);
  return send('POST', path, { ...person.headers, ...body.headers, ...extraHeaders }, body.payload);
};
const nextRequest = () => send('GET', '/api/users/me/', person.headers);

describe('a multipart body the route stops reading does not hold up the connection', () => {
  it('refuses a second file on /api/uploads/ and answers the next request on the same connection', async () => {
    const photo = await twoToneImage(64, 48);
    const first = await postMultipart('/api/uploads/', [
      {
        name: 'file',
        filename: 'a.jpg',
        contentType: 'image/jpeg',
        data: Buffer.concat([photo, randomBytes(800_000)]),
      },
      { name: 'file', filename: 'b.jpg', contentType: 'image/jpeg', data: randomBytes(800_000) },
    ]);
    expect(first.status).toBe(400);
    expect(JSON.parse(first.body)).toEqual({
      file: ['Upload one file at a time.'],
      code: 'common.validation',
    });

    const second = await nextRequest();
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
  });

  it('closes the connection when the size of what is left is unknown (chunked), and the next request gets through', async () => {
    const noise = (name: string) => ({
      name: 'file',
      filename: name,
      contentType: 'image/jpeg',
      data: randomBytes(800_000),
    });
    const first = await postMultipart('/api/uploads/', [noise('a.jpg'), noise('b.jpg')], {
      'transfer-encoding': 'chunked',
    });
    expect(first.status).toBe(400);
    expect(first.connection).toBe('close');
    expect((await nextRequest()).status).toBe(200);
  });

  it('answers the next request after model photos past the per-request limit', async () => {
    const created = await send(
      'POST',
      '/api/models/',
      { ...person.headers, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ name: 'Keep-alive' })),
    );
    expect(created.status).toBe(201);
    const files = Array.from({ length: MODEL_PHOTOS_PER_REQUEST + 10 }, (_, index) => ({
      name: 'files',
      filename: `noise-${index}.jpg`,
      contentType: 'image/jpeg',
      data: randomBytes(60_000),
    }));
    const first = await postMultipart(`/api/models/${JSON.parse(created.body).uuid}/photos/`, files);
    expect(first.status).toBe(400);

    const second = await nextRequest();
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
  });
});
