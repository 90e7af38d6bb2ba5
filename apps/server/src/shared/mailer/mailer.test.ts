import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

describe('mailer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-mailer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a real .eml file per email to the outbox when no SMTP is configured', async () => {
    const mailer = createMailer({ outboxDir: path.join(dir, 'outbox'), from: 'Mirra <no-reply@mirra.test>' });
    await mailer.send({ to: 'ann@example.com', subject: 'Привет', text: 'Ссылка: http://mirra.test/x' });
    const files = await readdir(path.join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const parsed = await simpleParser(await readFile(path.join(dir, 'outbox', files[0]!)));
    expect(parsed.subject).toBe('Привет');
    expect(parsed.text?.trim()).toBe('Ссылка: http://mirra.test/x');
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Mirra', address: 'no-reply@mirra.test' });
  });

  it('delivers through SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        outboxDir: path.join(dir, 'unused'),
        from: 'no-reply@mirra.test',
      });
      await mailer.send({ to: 'bob@example.com', subject: 'Hello', text: 'Body' });
      expect(received).toHaveLength(1);
      const parsed = await simpleParser(received[0]!);
      expect(parsed.subject).toBe('Hello');
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('bob@example.com');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
