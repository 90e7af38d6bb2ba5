import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '@mirra/contracts';
import type { TNotification } from '../../lib/api-types';
import { createTestI18n } from '../../test/i18n';
import { describeNotification } from './notification-text';

const user = '00000000-0000-4000-9000-000000000002';
const post = '00000000-0000-4000-8000-000000000003';

function say(i18n: I18n, notification: Pick<TNotification, 'kind' | 'data'>) {
  const text = describeNotification(notification, i18n.language);
  const terms = Object.fromEntries(Object.entries(text.terms).map(([name, key]) => [name, i18n.t(key)]));
  return { text: i18n.t(text.key, { ...text.values, ...terms }), href: text.href };
}

let en: I18n;
let ru: I18n;
beforeAll(async () => {
  [en, ru] = await Promise.all([createTestI18n('en'), createTestI18n('ru')]);
});

describe('notification wording', () => {
  it('says who subscribed and links to them', () => {
    expect(say(en, { kind: 'new_subscriber', data: { user_uuid: user, user_name: 'Grace Hopper' } })).toEqual(
      {
        text: 'Grace Hopper subscribed to you',
        href: `/profile/${user}/`,
      },
    );
  });

  it('says what a royalty earned, with the language’s plural, and links to the post', () => {
    const royalty = (amount: number) =>
      ({ kind: 'royalty', data: { amount, post_uuid: post, user_uuid: user, user_name: 'Grace' } }) as const;
    expect(say(en, royalty(1))).toEqual({
      text: 'Grace made a picture from your publication: +1 credit',
      href: `/post/${post}/`,
    });
    expect(say(en, royalty(3)).text).toBe('Grace made a picture from your publication: +3 credits');
    expect(say(ru, royalty(1)).text).toMatch(/\+1 кредит$/);
    expect(say(ru, royalty(3)).text).toMatch(/\+3 кредита$/);
    expect(say(ru, royalty(5)).text).toMatch(/\+5 кредитов$/);
  });

  it('words a nameless sender, a finished generation by its mode, a ready model and a removed post', () => {
    expect(say(en, { kind: 'new_subscriber', data: {} })).toEqual({
      text: 'You have a new subscriber',
      href: null,
    });
    expect(
      say(en, { kind: 'generation_finished', data: { generation_uuid: post, mode: 'styling' } }),
    ).toEqual({ text: 'Styling: your result is ready', href: `/generation/${post}/` });
    expect(say(en, { kind: 'model_ready', data: { model_uuid: post, model_name: 'Me' } })).toEqual({
      text: 'Your digital model “Me” is ready',
      href: `/model/${post}/`,
    });
    expect(say(en, { kind: 'post_removed', data: { post_uuid: post, reason: 'reported' } }).text).toBe(
      'Your publication was hidden after reports and waits for review',
    );
  });

  it('tells of a failed premium renewal, with the attempts left, and leads to the subscription', () => {
    expect(say(en, { kind: 'subscription_renewal_failed', data: { attempts_left: 2 } })).toEqual({
      text: 'Premium renewal failed. We will try again (2 more attempts); check your payment method',
      href: '/settings/subscription/',
    });
    expect(say(ru, { kind: 'subscription_renewal_failed', data: { attempts_left: 1 } }).text).toMatch(
      /осталась 1 попытка/,
    );
    expect(say(en, { kind: 'subscription_renewal_failed', data: { attempts_left: 0 } }).text).toMatch(
      /^Premium could not be renewed: renewals stopped/,
    );
  });

  it('writes partner money as the wallet does, in the reader’s language', async () => {
    const de = await createTestI18n('de');
    const commission = { kind: 'commission_frozen', data: { amount: 1990, currency: 643 } } as const;
    expect(say(ru, commission).text).toContain('19,90\u00a0₽');
    expect(say(de, commission).text).toContain('19,90\u00a0₽');
    expect(say(en, { kind: 'payout_paid', data: { amount: 1250, currency: 840 } }).text).toContain('$12.50');
  });

  it('has a sentence for every kind in every language', async () => {
    for (const language of ['en', 'ru', 'de', 'uk', 'kk', 'az']) {
      const i18n = await createTestI18n(language);
      for (const kind of NOTIFICATION_KINDS) {
        const { key } = describeNotification(
          { kind, data: { user_name: 'A', amount: 2, model_name: 'B' } },
          language,
        );
        expect(i18n.exists(key) || i18n.exists(`${key}_other`), `${language}: ${key}`).toBe(true);
      }
    }
  });
});
