import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MODE_DECLARATIONS, STAFF_REASON_MAX_LENGTH, type TAdminPricing } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { formatDateTime } from '../../../lib/dates';
import { useAction } from '../../../lib/use-action';
import { adminPricingApi, adminPricingKeys } from '../api/admin-pricing.api';
import {
  draftOf,
  emptyProduct,
  settingsOfDraft,
  type FieldProblem,
  type PricingDraft,
  type ProductDraft,
} from '../pricing-form';

/**
 * Catalogue and prices: mode prices, the free tier, the packs and the plan with their prices per
 * region. Values the console has not changed come from the server's configuration and are marked
 * so; saving asks for a reason and a confirmation, applies at once for everyone and is audited.
 */
export function PricingEditor() {
  const query = useQuery({ queryKey: adminPricingKeys.pricing(), queryFn: adminPricingApi.get });
  if (query.isPending) return <Spinner size={28} />;
  if (query.isError) return <LoadError query={query} />;
  // A new version (saved here or elsewhere) starts the form again from what is in force.
  return <PricingForm key={query.data.version} pricing={query.data} />;
}

function PricingForm({ pricing }: { pricing: TAdminPricing }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState<PricingDraft>(() => draftOf(pricing.settings));
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [reason, setReason] = useState('');
  const [armed, setArmed] = useState(false);
  const errors = useFormErrors(['reason']);
  const defaults = draftOf(pricing.defaults);
  const overridden = new Set(pricing.overridden);
  const save = useAction({
    run: (settings: Parameters<typeof adminPricingApi.change>[0]) =>
      adminPricingApi.change(settings, reason.trim()),
    onSuccess: (saved) => {
      useAppStore.getState().showTopinfo('success', t('admin.pricing.saved'));
      client.setQueryData(adminPricingKeys.pricing(), saved);
    },
    onError: (error) => {
      setArmed(false);
      errors.showError(error);
    },
  });

  const problemOf = (path: string) => {
    const problem = problems[path];
    return problem ? t(problem.key, problem.values) : undefined;
  };
  const edit = (change: (draft: PricingDraft) => PricingDraft) => {
    setArmed(false);
    setDraft(change);
  };

  /** A number field; `fallback` is the configuration's value, shown when the console overrides it. */
  const numberField = (
    path: string,
    title: string,
    value: string,
    onValueChange: (value: string) => void,
    fallback?: { value: string; overridden: boolean },
    decimal = false,
  ) => (
    <TextInput
      key={path}
      title={title}
      value={value}
      onValueChange={onValueChange}
      inputMode={decimal ? 'decimal' : 'numeric'}
      error={problemOf(path)}
      hint={
        fallback
          ? fallback.overridden
            ? t('admin.pricing.defaultIs', { value: fallback.value })
            : t('admin.pricing.isDefault')
          : undefined
      }
      data-testid={`pricing-${path}`}
    />
  );

  function submit() {
    errors.clear();
    const result = settingsOfDraft(draft);
    setProblems(result.problems ?? {});
    if (result.problems) {
      setArmed(false);
      errors.setAlert(t('admin.pricing.fixFields'));
      return;
    }
    if (!reason.trim()) {
      errors.setAlert(t('admin.reasonRequired'));
      return;
    }
    if (!armed) {
      setArmed(true);
      return;
    }
    save.mutate(result.settings);
  }

  const setProduct = (index: number, change: Partial<ProductDraft>) =>
    edit((d) => ({ ...d, catalogue: d.catalogue.map((p, i) => (i === index ? { ...p, ...change } : p)) }));

  return (
    <form
      className="admin__pricing stack"
      noValidate
      data-testid="admin-pricing"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="admin__meta">
        {pricing.updated_at
          ? t('admin.pricing.version', {
              version: pricing.version,
              date: formatDateTime(pricing.updated_at, i18n.language),
            })
          : t('admin.pricing.allDefaults')}
      </p>

      <section className="admin__card">
        <h2 className="admin__name">{t('admin.pricing.modes')}</h2>
        <p className="admin__meta">{t('admin.pricing.modesHint')}</p>
        <div className="admin__pricing-grid">
          {MODE_DECLARATIONS.map(({ id, price: { key, per }, inputs }) =>
            numberField(
              `prices.${key}`,
              per === 'second'
                ? t('admin.pricing.perSecond', { mode: t(`modes.${id}.title`) })
                : 'pack' in inputs.settings
                  ? t('admin.pricing.perPackPicture', { mode: t(`modes.${id}.title`) })
                  : t(`modes.${id}.title`),
              draft.prices[key],
              (value) => edit((d) => ({ ...d, prices: { ...d.prices, [key]: value } })),
              { value: defaults.prices[key], overridden: overridden.has(`prices.${key}`) },
            ),
          )}
        </div>
      </section>

      <section className="admin__card">
        <h2 className="admin__name">{t('admin.pricing.freeTier')}</h2>
        <div className="admin__pricing-grid">
          {(['daily_photos', 'delay_seconds'] as const).map((key) =>
            numberField(
              `free_tier.${key}`,
              t(`admin.pricing.free.${key}`),
              draft.free_tier[key],
              (value) => edit((d) => ({ ...d, free_tier: { ...d.free_tier, [key]: value } })),
              { value: defaults.free_tier[key], overridden: overridden.has(`free_tier.${key}`) },
            ),
          )}
        </div>
      </section>

      <section className="admin__card" data-testid="pricing-catalogue">
        <h2 className="admin__name">{t('admin.pricing.packs')}</h2>
        <p className="admin__meta">
          {overridden.has('catalogue') ? t('admin.pricing.changedHere') : t('admin.pricing.isDefault')}
          {' · '}
          {t('admin.pricing.moneyHint')}
        </p>
        {problemOf('catalogue') && <Alert>{problemOf('catalogue')}</Alert>}
        {draft.catalogue.map((product, index) => (
          <fieldset key={index} className="admin__pricing-product" data-testid="pricing-product">
            <div className="admin__pricing-grid">
              <TextInput
                title={t('admin.pricing.productId')}
                value={product.id}
                onValueChange={(id) => setProduct(index, { id })}
                error={problemOf(`catalogue.${index}.id`)}
                maxLength={64}
                data-testid={`pricing-catalogue.${index}.id`}
              />
              <label className="field">
                <span className="field__title">{t('admin.pricing.kind')}</span>
                <select
                  className="admin__select"
                  value={product.kind}
                  onChange={(event) =>
                    setProduct(index, { kind: event.currentTarget.value as ProductDraft['kind'] })
                  }
                >
                  <option value="credits">{t('admin.pricing.kinds.credits')}</option>
                  <option value="unlimited">{t('admin.pricing.kinds.unlimited')}</option>
                </select>
              </label>
              {numberField(
                `catalogue.${index}.amount`,
                t(product.kind === 'credits' ? 'admin.pricing.credits' : 'admin.pricing.days'),
                product.amount,
                (amount) => setProduct(index, { amount }),
              )}
              {numberField(
                `catalogue.${index}.ru`,
                t('admin.pricing.ru'),
                product.ru,
                (ru) => setProduct(index, { ru }),
                undefined,
                true,
              )}
              {numberField(
                `catalogue.${index}.intl`,
                t('admin.pricing.intl'),
                product.intl,
                (intl) => setProduct(index, { intl }),
                undefined,
                true,
              )}
              {numberField(`catalogue.${index}.stars`, t('admin.pricing.stars'), product.stars, (stars) =>
                setProduct(index, { stars }),
              )}
            </div>
            <Button
              theme="light"
              size="sm"
              onClick={() => edit((d) => ({ ...d, catalogue: d.catalogue.filter((_, i) => i !== index) }))}
            >
              {t('admin.pricing.removeProduct')}
            </Button>
          </fieldset>
        ))}
        <div className="admin__buttons">
          <Button
            theme="light"
            size="sm"
            onClick={() => edit((d) => ({ ...d, catalogue: [...d.catalogue, emptyProduct()] }))}
          >
            {t('admin.pricing.addProduct')}
          </Button>
          {overridden.has('catalogue') && (
            <Button
              theme="light"
              size="sm"
              onClick={() => edit((d) => ({ ...d, catalogue: defaults.catalogue }))}
            >
              {t('admin.pricing.useDefaults')}
            </Button>
          )}
        </div>
      </section>

      <section className="admin__card" data-testid="pricing-plan">
        <h2 className="admin__name">{t('admin.pricing.plan')}</h2>
        <p className="admin__meta">
          {overridden.has('plan') ? t('admin.pricing.changedHere') : t('admin.pricing.isDefault')}
        </p>
        <div className="admin__pricing-grid">
          <TextInput
            title={t('admin.pricing.productId')}
            value={draft.plan.id}
            onValueChange={(id) => edit((d) => ({ ...d, plan: { ...d.plan, id } }))}
            error={problemOf('plan.id')}
            maxLength={64}
          />
          {(
            [
              ['period_days', false],
              ['trial_days', false],
              ['trial_credits', false],
              ['credits', false],
              ['ru', true],
              ['intl', true],
              ['xtr', false],
            ] as const
          ).map(([key, decimal]) =>
            numberField(
              `plan.${key}`,
              t(`admin.pricing.planFields.${key}`),
              draft.plan[key],
              (value) => edit((d) => ({ ...d, plan: { ...d.plan, [key]: value } })),
              undefined,
              decimal,
            ),
          )}
        </div>
        {overridden.has('plan') && (
          <div className="admin__buttons">
            <Button theme="light" size="sm" onClick={() => edit((d) => ({ ...d, plan: defaults.plan }))}>
              {t('admin.pricing.useDefaults')}
            </Button>
          </div>
        )}
      </section>

      <section className="admin__card admin__actions">
        <TextInput
          title={t('admin.reason')}
          value={reason}
          onValueChange={(value) => {
            setArmed(false);
            setReason(value);
          }}
          maxLength={STAFF_REASON_MAX_LENGTH}
          error={errors.fieldErrors.reason}
          data-testid="pricing-reason"
        />
        {errors.alert && <Alert>{errors.alert}</Alert>}
        {armed && (
          <p className="admin__confirm" role="alert" data-testid="pricing-confirm">
            {t('admin.pricing.confirm')}
          </p>
        )}
        <div className="admin__buttons">
          <Button type="submit" theme="primary" size="sm" loading={save.isPending} data-testid="pricing-save">
            {armed ? t('admin.confirmYes') : t('admin.pricing.save')}
          </Button>
          {armed && (
            <Button theme="light" size="sm" disabled={save.isPending} onClick={() => setArmed(false)}>
              {t('admin.confirmNo')}
            </Button>
          )}
        </div>
      </section>
    </form>
  );
}
