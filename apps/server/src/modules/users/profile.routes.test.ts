import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn() {
  const user = await createActiveUser(t);
  const { access } = await login(t, user.email!, user.password);
  return { user, headers: bearer(access) };
}

describe('my profile', () => {
  it('has every field the client reads, and a referral link', async () => {
    const { user, headers } = await signedIn();
    const response = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    for (const field of [
      'id',
      'uuid',
      'email',
      'lora',
      'reflink',
      'firstName',
      'lastName',
      'username',
      'phone',
      'instagram',
      'referer',
      'registered',
      'date_joined',
    ]) {
      expect(body).toHaveProperty(field);
    }
    expect(body.reflink).toBe(`http://mirra.test/sign-up/?ref=${user.referralCode}`);
    expect(body).not.toHaveProperty('password_hash');
    expect(body).not.toHaveProperty('passwordHash');
  });

  it('saves edited fields, leaves missing ones alone, and validates each', async () => {
    const { headers } = await signedIn();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers,
      payload: {
        firstName: '  Ada ',
        lastName: 'Lovelace',
        username: 'ada_l',
        phone: '+7 (900) 123-45-67',
        instagram: '@ada.codes',
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: 'ada_l',
      phone: '+7 (900) 123-45-67',
      instagram: '@ada.codes',
    });

    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers,
      payload: { lastName: 'King' },
    });
    expect(patch.json()).toMatchObject({ firstName: 'Ada', lastName: 'King' });

    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers,
      payload: {
        username: 'a b',
        phone: 'call me',
        instagram: 'no spaces allowed',
        firstName: 'x'.repeat(151),
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      code: 'common.validation',
      username: ['Use 3 to 32 letters, digits, dots or underscores.'],
      phone: ['Enter a valid phone number.'],
      instagram: ['Enter a valid Instagram username.'],
      firstName: ['Ensure this field has no more than 150 characters.'],
    });
  });

  it('keeps usernames unique regardless of case', async () => {
    const a = await signedIn();
    const b = await signedIn();
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers: a.headers,
      payload: { username: 'Unique_Name' },
    });
    const taken = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers: b.headers,
      payload: { username: 'unique_name' },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({
      code: 'users.username_taken',
      username: ['A user with that username already exists.'],
    });
    const same = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers: a.headers,
      payload: { username: 'unique_NAME' },
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('other people', () => {
  it('finds a public profile by id or uuid, without private fields', async () => {
    const { headers } = await signedIn();
    const other = await createActiveUser(t, { firstName: 'Grace' });
    for (const id of [String(other.id), other.uuid]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/users/by_id/?id=${id}`, headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: other.id, uuid: other.uuid, firstName: 'Grace' });
      expect(response.json()).not.toHaveProperty('email');
      expect(response.json()).not.toHaveProperty('phone');
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/users/by_id/?id=999999999', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not found.', code: 'users.not_found' });
    const bad = await t.app.inject({ method: 'GET', url: '/api/users/by_id/?id=robert', headers });
    expect(bad.json()).toEqual({ code: 'common.validation', id: ['Enter a user id or uuid.'] });
    const none = await t.app.inject({ method: 'GET', url: '/api/users/by_id/', headers });
    expect(none.statusCode).toBe(400);
  });

  it('returns many profiles from repeated id[] values, in the order asked, skipping unknown ones', async () => {
    const { headers } = await signedIn();
    const [a, b] = [await createActiveUser(t), await createActiveUser(t)];
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/by_ids/?id[]=${b.id}&id[]=999999999&id[]=${a.uuid}&id[]=${b.uuid}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((u: { id: number }) => u.id)).toEqual([b.id, a.id]);
    const single = await t.app.inject({ method: 'GET', url: `/api/users/by_ids/?id[]=${a.id}`, headers });
    expect(single.json()).toHaveLength(1);
  });

  it('shows strangers only what a profile page shows: not whether there is a digital model, nor Instagram', async () => {
    const { headers } = await signedIn();
    const other = await createActiveUser(t, { firstName: 'Ada' });
    await t.deps.db
      .update(users)
      .set({ hasLora: true, username: `ada_${other.id}`, instagram: 'ada.insta' })
      .where(eq(users.id, other.id));
    const expected = {
      id: other.id,
      uuid: other.uuid,
      firstName: 'Ada',
      lastName: '',
      username: `ada_${other.id}`,
      date_joined: expect.any(String),
    };
    const one = await t.app.inject({ method: 'GET', url: `/api/users/by_id/?id=${other.id}`, headers });
    expect(one.json()).toEqual(expected);
    const many = await t.app.inject({
      method: 'GET',
      url: `/api/users/by_ids/?id[]=${other.id}&id[]=${other.uuid}`,
      headers,
    });
    expect(many.json()).toEqual([expected]);
  });

  it('shows me my own record with Instagram and whether I have a digital model', async () => {
    const me = await createActiveUser(t);
    await t.deps.db.update(users).set({ hasLora: true, instagram: 'me.insta' }).where(eq(users.id, me.id));
    const headers = bearer((await login(t, me.email!, me.password)).access);
    const one = await t.app.inject({ method: 'GET', url: `/api/users/by_id/?id=${me.uuid}`, headers });
    expect(one.json()).toMatchObject({ id: me.id, instagram: 'me.insta', lora: true });
    const many = await t.app.inject({ method: 'GET', url: `/api/users/by_ids/?id[]=${me.id}`, headers });
    expect(many.json()).toEqual([expect.objectContaining({ instagram: 'me.insta', lora: true })]);
  });

  it('is for signed-in users only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/by_id/?id=1' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/by_ids/?id[]=1' })).statusCode).toBe(401);
  });
});
