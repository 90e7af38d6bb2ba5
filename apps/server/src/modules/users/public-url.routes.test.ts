import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// PUBLIC_URL left unset on a server moved to another port: links must not point at :3000.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PORT: '4123', PUBLIC_URL: '' } });
});
afterAll(() => t.close());

describe('links without PUBLIC_URL', () => {
  it('emails activation and reset links on the port the server runs on', async () => {
    const email = uniqueEmail('porty');
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email, password: 'Blue-Otter-73' },
    });
    expect(register.statusCode).toBe(201);
    const active = await createActiveUser(t);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/users/reset_password/',
      payload: { email: active.email },
    });
    expect(reset.statusCode).toBe(204);
    await t.runJobs();

    const mails = await t.readOutbox();
    const activation = mails.find((m) => m.to === email);
    expect(activation?.text).toMatch(/http:\/\/localhost:4123\/activate\/[^/\s]+\/[^/\s]+/);
    const resetMail = mails.find((m) => m.to === active.email);
    expect(resetMail?.text).toMatch(/http:\/\/localhost:4123\/reset-pass\/[^/\s]+\/[^/\s]+/);
    for (const mail of mails) expect(mail.text).not.toContain('localhost:3000');
  });

  it('gives a referral link on that port too', async () => {
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
    expect(me.json().reflink).toBe(`http://localhost:4123/sign-up/?ref=${user.referralCode}`);
  });
});
