import type { TSignInPair } from '@mirra/contracts';
import { hashPassword } from '../modules/auth/password-hashing.js';
import { createUser } from '../modules/users/users.usecases.js';
import type { UserRow } from '../modules/users/users.repository.js';
import type { TestApp } from './test-app.js';

export const DEFAULT_PASSWORD = 'Correct-Horse-42';

let counter = 0;
/** A unique email for this run, readable in failures. */
export function uniqueEmail(name = 'user'): string {
  counter += 1;
  return `${name}.${process.pid}.${counter}@example.com`;
}

/** An activated email account, straight into the database (tests of other flows start here). */
export async function createActiveUser(
  t: TestApp,
  values: { email?: string; password?: string; firstName?: string; referralCode?: string } = {},
): Promise<UserRow & { password: string }> {
  const password = values.password ?? DEFAULT_PASSWORD;
  const user = await createUser(
    t.deps.db,
    {
      email: values.email ?? uniqueEmail(),
      passwordHash: await hashPassword(password),
      isActive: true,
      firstName: values.firstName ?? '',
    },
    values.referralCode,
  );
  return { ...user, password };
}

/** Signs in through the real login endpoint. */
export async function login(
  t: TestApp,
  email: string,
  password: string = DEFAULT_PASSWORD,
): Promise<TSignInPair> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/token/login/',
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

/** An uploaded photo owned by the user, as the uploads endpoint would store it. */
export async function createUploadFor(t: TestApp, userId: number, data?: Buffer) {
  const { uploads } = await import('../shared/db/schema.js');
  const sharpModule = (await import('sharp')).default;
  const image =
    data ??
    (await sharpModule({ create: { width: 400, height: 300, channels: 3, background: '#8a6' } })
      .jpeg()
      .toBuffer());
  const meta = await sharpModule(image).metadata();
  const { randomUUID } = await import('node:crypto');
  const uuid = randomUUID();
  const key = `uploads/${userId}/${uuid}.jpg`;
  await t.deps.storage.put(key, image, 'image/jpeg');
  await t.deps.db.insert(uploads).values({
    uuid,
    userId,
    contentType: 'image/jpeg',
    width: meta.width!,
    height: meta.height!,
    bytes: image.length,
    storageKey: key,
  });
  return { uuid, key };
}
