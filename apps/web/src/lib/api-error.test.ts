import { fieldMessages } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { ApiError, parseApiError } from './api-error';
import { describeError } from './error-messages';

describe('DRF error parsing', () => {
  it('shows detail as an alert', () => {
    expect(parseApiError({ detail: 'Not found.', code: 'common.not_found' })).toEqual({
      kind: 'alert',
      message: 'Not found.',
      code: 'common.not_found',
    });
  });

  it('shows the first non-field error as an alert', () => {
    expect(parseApiError({ non_field_errors: ['First', 'Second'], code: 'common.validation' })).toMatchObject(
      {
        kind: 'alert',
        message: 'First',
      },
    );
  });

  it('shows the first element of a bare list as an alert', () => {
    expect(parseApiError(['Only this', 'not this'])).toMatchObject({ kind: 'alert', message: 'Only this' });
  });

  it('keeps field errors per field', () => {
    expect(parseApiError({ email: ['Bad.'], password: 'Short.', code: 'common.validation' })).toEqual({
      kind: 'fields',
      fields: { email: ['Bad.'], password: ['Short.'] },
      code: 'common.validation',
    });
  });

  it("reads anything else as 'Invalid error: …'", () => {
    expect(parseApiError(null, '<html>502 Bad Gateway</html>')).toEqual({
      kind: 'alert',
      message: 'Invalid error: <html>502 Bad Gateway</html>',
      code: null,
      invalid: true,
    });
    expect(parseApiError({ detail: { nested: true } })).toMatchObject({
      message: 'Invalid error: {"nested":true}',
    });
  });
});

describe('what a form shows', () => {
  it('translates alerts by code, field messages by text, and moves unknown fields to the alert', async () => {
    const i18n = await createTestI18n('ru');
    const t = i18n.t.bind(i18n);
    const login = new ApiError(401, {
      detail: 'No active account found with the given credentials',
      code: 'auth.invalid_credentials',
    });
    expect(describeError(t, login, ['email', 'password']).alert).toBe(
      'Неверная почта или пароль, либо аккаунт ещё не активирован.',
    );
    const form = new ApiError(400, {
      email: ['Enter a valid email address.'],
      password: [
        'This password is too short. It must contain at least 8 characters.',
        'This password is entirely numeric.',
      ],
      token: ['Invalid token for given user.'],
      code: 'common.validation',
    });
    expect(describeError(t, form, ['email', 'password'])).toEqual({
      alert: 'Ссылка недействительна или устарела.',
      fields: {
        email: ['Введите правильный адрес почты.'],
        password: [
          'Пароль слишком короткий. Нужно минимум 8 символов.',
          'Пароль не может состоять только из цифр.',
        ],
      },
    });
  });

  it("shows the refusal of control characters in the user's language", async () => {
    const i18n = await createTestI18n('ru');
    const error = new ApiError(400, {
      firstName: [fieldMessages.controlCharacters],
      code: 'common.validation',
    });
    expect(describeError(i18n.t.bind(i18n), error, ['firstName']).fields).toEqual({
      firstName: ['Уберите из текста управляющие символы.'],
    });
  });

  it("shows the refusal of a second file in the user's language", async () => {
    const i18n = await createTestI18n('de');
    const error = new ApiError(400, { file: ['Upload one file at a time.'], code: 'common.validation' });
    expect(describeError(i18n.t.bind(i18n), error, ['file']).fields).toEqual({
      file: ['Lade jeweils nur eine Datei hoch.'],
    });
  });

  it('keeps unknown messages as the server wrote them', async () => {
    const i18n = await createTestI18n('de');
    const error = new ApiError(400, { nickname: ['Something new.'], code: 'common.validation' });
    expect(describeError(i18n.t.bind(i18n), error, ['nickname']).fields).toEqual({
      nickname: ['Something new.'],
    });
  });

  it('says there is no connection when no answer came', async () => {
    const i18n = await createTestI18n('en');
    expect(describeError(i18n.t.bind(i18n), new TypeError('Failed to fetch')).alert).toMatch(/No connection/);
  });
});
