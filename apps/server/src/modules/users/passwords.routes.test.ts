import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function resetLinkFor(email: string) {
  await t.runJobs();
  const mail = (await t.readOutbox()).filter((m) => m.to === email).at(-1);
  if (!mail) throw new Error(`no email to ${email}`);
  const match = /http:\/\/mirra\.test\/reset-pass\/([^/\s]+)\/([^/\s]+)/.exec(mail.text);
  if (!match) throw new Error(`no reset link in ${mail.text}`);
  return { uid: match[1]!, token: match[2]!, mail };
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

describe('password reset by email', () => {
  it('emails a single-use link that sets a new password and ends every session', async () => {
    const user = await createActiveUser(t, { firstName: 'Bob' });
    const before = await login(t, user.email!, user.password);

    expect((await post('/api/users/reset_password/', { email: user.email! })).statusCode).toBe(204);
    const { uid, token, mail } = await resetLinkFor(user.email!);
    expect(mail.subject).toBe('Reset your Mirra password');
    expect(mail.text).toContain('Hello, Bob');

    const weak = await post('/api/users/reset_password_confirm/', { uid, token, new_password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().new_password).toContain(
      'This password is too short. It must contain at least 8 characters.',
    );

    const done = await post('/api/users/reset_password_confirm/', {
      uid,
      token,
      new_password: 'Fresh-Meadow-88',
    });
    expect(done.statusCode).toBe(204);
    const reused = await post('/api/users/reset_password_confirm/', {
      uid,
      token,
      new_password: 'Other-Meadow-99',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ code: 'users.reset_invalid', token: ['Invalid token for given user.'] });

    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(before.access) }))
        .statusCode,
    ).toBe(401);
    await login(t, user.email!, 'Fresh-Meadow-88');
  });

  it('answers 204 for an unknown email and sends nothing (no account enumeration)', async () => {
    const email = uniqueEmail('ghost');
    expect((await post('/api/users/reset_password/', { email })).statusCode).toBe(204);
    await t.runJobs();
    expect((await t.readOutbox()).filter((m) => m.to === email)).toHaveLength(0);
  });

  it('refuses a link past its lifetime and a link for another user', async () => {
    const user = await createActiveUser(t);
    const other = await createActiveUser(t);
    await post('/api/users/reset_password/', { email: user.email! });
    const { uid, token } = await resetLinkFor(user.email!);

    const { uid: otherUid } = { uid: Buffer.from(String(other.id)).toString('base64url') };
    const swapped = await post('/api/users/reset_password_confirm/', {
      uid: otherUid,
      token,
      new_password: 'Fresh-Meadow-88',
    });
    expect(swapped.json()).toEqual({ code: 'users.reset_invalid', token: ['Invalid token for given user.'] });

    const badUid = await post('/api/users/reset_password_confirm/', {
      uid: 'zzzz',
      token,
      new_password: 'Fresh-Meadow-88',
    });
    expect(badUid.json()).toEqual({
      code: 'users.reset_invalid',
      uid: ["Invalid user id or user doesn't exist."],
    });

    t.setNow(new Date(Date.now() + 25 * 3600 * 1000));
    try {
      const late = await post('/api/users/reset_password_confirm/', {
        uid,
        token,
        new_password: 'Fresh-Meadow-88',
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().token).toEqual(['Invalid token for given user.']);
    } finally {
      t.setNow(undefined);
    }
  });
});

describe('resending the activation email', () => {
  it('sends a working link to an inactive account, and nothing to active or unknown ones', async () => {
    const email = uniqueEmail('late');
    await post('/api/users/', { email, password: 'Quiet-River-31' });
    await t.runJobs();
    expect((await post('/api/users/resend_activation/', { email })).statusCode).toBe(204);
    await t.runJobs();
    const mails = (await t.readOutbox()).filter((m) => m.to === email);
    expect(mails).toHaveLength(2);
    const match = /\/activate\/([^/\s]+)\/([^/\s]+)/.exec(mails[1]!.text)!;
    expect((await post('/api/users/activation/', { uid: match[1]!, token: match[2]! })).statusCode).toBe(200);

    const active = await createActiveUser(t);
    expect((await post('/api/users/resend_activation/', { email: active.email! })).statusCode).toBe(204);
    expect((await post('/api/users/resend_activation/', { email: uniqueEmail('nobody') })).statusCode).toBe(
      204,
    );
    await t.runJobs();
    expect((await t.readOutbox()).filter((m) => m.to === active.email)).toHaveLength(0);
  });

  it('refuses a forged activation token', async () => {
    const email = uniqueEmail('forger');
    const created = (await post('/api/users/', { email, password: 'Quiet-River-31' })).json();
    const uid = Buffer.from(String(created.id)).toString('base64url');
    const forged = await post('/api/users/activation/', {
      uid,
      token: 'abc123-0123456789abcdef0123456789abcdef',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({
      code: 'users.activation_invalid',
      token: ['Invalid token for given user.'],
    });
  });
});

describe('changing the password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const user = await createActiveUser(t);
    const here = await login(t, user.email!, user.password);
    const elsewhere = await login(t, user.email!, user.password);

    const wrong = await post(
      '/api/users/set_password/',
      { current_password: 'wrong', new_password: 'Brand-New-Pass-1' },
      bearer(here.access),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      code: 'users.current_password_invalid',
      current_password: ['Invalid password.'],
    });

    const similar = await post(
      '/api/users/set_password/',
      { current_password: user.password, new_password: user.email!.split('@')[0]! },
      bearer(here.access),
    );
    expect(similar.statusCode).toBe(400);
    expect(similar.json().new_password).toContain('The password is too similar to the email address.');

    const ok = await post(
      '/api/users/set_password/',
      { current_password: user.password, new_password: 'Brand-New-Pass-1' },
      bearer(here.access),
    );
    expect(ok.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(here.access) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(elsewhere.access) }))
        .statusCode,
    ).toBe(401);
    await login(t, user.email!, 'Brand-New-Pass-1');
  });

  it('needs authentication', async () => {
    const response = await post('/api/users/set_password/', { current_password: 'a', new_password: 'b' });
    expect(response.statusCode).toBe(401);
  });
});
