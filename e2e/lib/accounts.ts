import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { e2eEnv } from './env.js';

export const PASSWORD = 'Violet-Lantern-42';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}${randomBytes(3).toString('hex')}@example.test`;
}

export async function callApi<T>(
  pathname: string,
  options: { method?: string; body?: unknown; authorization?: string } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(pathname, e2eEnv.baseUrl), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      ...(options.authorization ? { authorization: options.authorization } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * The activation link from the real outbox: the server writes every email as an .eml file in
 * DATA_DIR/outbox (sent by a background job, so this waits for it).
 */
export async function readActivationLink(email: string, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(e2eEnv.dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
      const mail = await simpleParser(await readFile(path.join(outbox, file)));
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
      if (!to.toLowerCase().includes(email.toLowerCase())) continue;
      const link = (mail.text ?? '').match(/https?:\/\/\S+\/activate\/[^/\s]+\/[^/\s]+/);
      if (link) return link[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No activation email for ${email} in ${outbox}`);
}

export interface TestUser {
  email: string;
  password: string;
  refresh: string;
  access: string;
  id: number;
  uuid: string;
}

/** Registers, activates (through the emailed link) and signs in a user over the API. */
export async function createActiveUser(
  fields: { firstName?: string; lastName?: string } = {},
): Promise<TestUser> {
  const email = uniqueEmail();
  const registered = await callApi<{ id: number; uuid: string }>('/api/users/', {
    body: {
      email,
      password: PASSWORD,
      firstName: fields.firstName ?? 'Test',
      lastName: fields.lastName ?? 'User',
    },
  });
  if (registered.status !== 201)
    throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const link = await readActivationLink(email);
  const [, uid, token] = new URL(link).pathname.match(/\/activate\/([^/]+)\/([^/]+)/) ?? [];
  const activated = await callApi('/api/users/activation/', { body: { uid, token } });
  if (activated.status !== 200) throw new Error(`activation: ${activated.status}`);
  const login = await callApi<{ refresh: string; access: string }>('/api/token/login/', {
    body: { email, password: PASSWORD },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return { email, password: PASSWORD, ...login.body, id: registered.body.id, uuid: registered.body.uuid };
}
