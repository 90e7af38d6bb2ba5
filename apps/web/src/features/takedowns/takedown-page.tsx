import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TAKEDOWN_CATEGORIES, TAKEDOWN_DETAILS_MAX_LENGTH, type TTakedownCategory } from '@mirra/contracts';
import type { TTakedownReceipt } from '@mirra/contracts';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { IconCheck } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { TextInput } from '../../components/ui/text-input';
import { useFormErrors } from '../../components/ui/use-form-errors';
import { useAction } from '../../lib/use-action';
import { requestTakedown } from './takedowns.api';
import './takedowns.css';

const FIELDS = ['post_url', 'category', 'contact_email', 'details'] as const;

/**
 * The public takedown form (signed in or not): the post's link (filled in when opened from a
 * post), what it shows and where to answer. An intimate picture is hidden at once; the answer
 * says by when it is decided.
 */
export function TakedownPage() {
  const { t, i18n } = useTranslation();
  const [search] = useSearchParams();
  const [postUrl, setPostUrl] = useState(search.get('post') ?? '');
  const [category, setCategory] = useState<TTakedownCategory | null>(null);
  const [email, setEmail] = useState('');
  const [details, setDetails] = useState('');
  const [receipt, setReceipt] = useState<TTakedownReceipt | null>(null);
  const errors = useFormErrors(FIELDS);
  const send = useAction({
    run: () =>
      requestTakedown({
        post_url: postUrl,
        // The server names a missing choice in the person's language, like every other field.
        category: category as TTakedownCategory,
        contact_email: email,
        details: details.trim() || undefined,
      }),
    onSuccess: setReceipt,
    onError: errors.showError,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    send.mutate(undefined);
  }

  const date = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language, { dateStyle: 'long', timeStyle: 'short' });

  return (
    <PageFrame width="narrow" testId="takedown-page">
      <div className="takedown stack">
        <h1 className="takedown__title">{t('takedown.title')}</h1>
        {receipt ? (
          <section className="takedown__done" data-testid="takedown-done" aria-live="polite">
            <h2 className="takedown__done-title">
              <IconCheck size={20} /> {t('takedown.sentTitle')}
            </h2>
            <p>
              {receipt.hidden && receipt.deadline_at
                ? t('takedown.sentHidden', { date: date(receipt.deadline_at) })
                : t('takedown.sentQueued')}
            </p>
          </section>
        ) : (
          <form className="stack" onSubmit={onSubmit} noValidate data-testid="takedown-form">
            <p className="takedown__text">{t('takedown.text')}</p>
            <TextInput
              title={t('takedown.postUrl')}
              value={postUrl}
              onValueChange={setPostUrl}
              hint={t('takedown.postUrlHint')}
              error={errors.fieldErrors.post_url}
              data-testid="takedown-post-url"
            />
            <fieldset className="takedown__categories">
              <legend className="takedown__legend">{t('takedown.category')}</legend>
              <div className="list" role="radiogroup" aria-label={t('takedown.category')}>
                {TAKEDOWN_CATEGORIES.map((name) => (
                  <button
                    key={name}
                    type="button"
                    role="radio"
                    aria-checked={category === name}
                    className={`list__row${category === name ? ' is-active' : ''}`}
                    onClick={() => {
                      setCategory(name);
                      errors.clearField('category');
                    }}
                    data-testid={`takedown-category-${name}`}
                  >
                    <span className="list__label">{t(`takedown.categories.${name}`)}</span>
                    {category === name && <IconCheck size={18} className="list__check" />}
                  </button>
                ))}
              </div>
              {errors.fieldErrors.category && (
                <p className="takedown__error" role="alert" data-testid="takedown-category-error">
                  {[errors.fieldErrors.category].flat().join(' ')}
                </p>
              )}
            </fieldset>
            <TextInput
              title={t('takedown.email')}
              type="email"
              autoComplete="email"
              value={email}
              onValueChange={setEmail}
              error={errors.fieldErrors.contact_email}
              data-testid="takedown-email"
            />
            <TextInput
              title={t('takedown.details')}
              value={details}
              onValueChange={setDetails}
              maxLength={TAKEDOWN_DETAILS_MAX_LENGTH}
              error={errors.fieldErrors.details}
            />
            {errors.alert && <Alert>{errors.alert}</Alert>}
            <Button type="submit" theme="danger" block loading={send.isPending} data-testid="takedown-submit">
              {t('takedown.submit')}
            </Button>
          </form>
        )}
        <p className="takedown__rule" data-testid="provenance-rule">
          {t('takedown.provenanceRule')}
        </p>
      </div>
    </PageFrame>
  );
}
