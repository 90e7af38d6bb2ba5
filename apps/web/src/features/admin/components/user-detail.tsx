import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_CREDIT_CHANGE_MAX, STAFF_REASON_MAX_LENGTH, type TAdminUserDetail } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Section } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { formatDateTime } from '../../../lib/dates';
import { useAction } from '../../../lib/use-action';
import { adminApi, adminKeys } from '../api/admin.api';
import { AccountRequests } from './account-requests';
import { GenerationFacts } from './generation-facts';
import { ReasonActions } from './reason-actions';
import { UserMoney } from './user-money';

/** One person: profile, ban, credits, models, generations, ledger and what staff did to them. */
export function UserDetail({ uuid }: { uuid: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [deleted, setDeleted] = useState(false);
  const detail = useQuery({
    queryKey: adminKeys.user(uuid),
    queryFn: () => adminApi.user(uuid),
    enabled: !deleted,
  });
  if (deleted) {
    return (
      <div className="admin__card" data-testid="admin-user-deleted">
        <h2 className="admin__name">{t('admin.users.deleted')}</h2>
        <p className="admin__meta">{t('admin.users.deletedNote')}</p>
      </div>
    );
  }
  if (detail.isPending) return <Spinner size={28} />;
  if (detail.isError) return <LoadError query={detail} />;
  const { user } = detail.data;
  const refresh = (message: string) => {
    useAppStore.getState().showTopinfo('success', message);
    void client.invalidateQueries({ queryKey: adminKeys.user(uuid) });
  };
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : '—');
  return (
    <div className="stack" data-testid="admin-user" data-banned={user.banned}>
      <div className="admin__card">
        <h2 className="admin__name">
          {[user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || '—'}
        </h2>
        <div className="admin__badges">
          {user.banned && (
            <span className="admin__badge admin__badge--hidden">{t('admin.users.banned')}</span>
          )}
          {user.staff_role && <span className="admin__badge">{t(`admin.roles.${user.staff_role}`)}</span>}
        </div>
        <dl className="admin__dl">
          <dt>{t('admin.users.email')}</dt>
          <dd>{user.email ?? '—'}</dd>
          <dt>Telegram</dt>
          <dd>
            {user.telegram_id ?? '—'}
            {user.telegram_username ? ` · @${user.telegram_username}` : ''}
          </dd>
          <dt>uuid</dt>
          <dd className="admin__mono">{user.uuid}</dd>
          <dt>{t('admin.users.joined')}</dt>
          <dd>{when(user.date_joined)}</dd>
          <dt>{t('admin.users.lastLogin')}</dt>
          <dd>{when(detail.data.last_login)}</dd>
          <dt>{t('admin.users.language')}</dt>
          <dd>{detail.data.language ?? '—'}</dd>
          <dt>{t('admin.users.balance')}</dt>
          <dd data-testid="admin-user-balance">{detail.data.balance}</dd>
        </dl>
        {!user.staff_role && (
          <ReasonActions
            testId="ban-actions"
            onDone={(id) => refresh(t(`admin.users.done.${id}`))}
            actions={[
              user.banned
                ? {
                    id: 'unban',
                    label: t('admin.users.unban'),
                    theme: 'light',
                    run: (reason) => adminApi.unban(uuid, reason),
                  }
                : {
                    id: 'ban',
                    label: t('admin.users.ban'),
                    theme: 'danger',
                    run: (reason) => adminApi.ban(uuid, reason),
                  },
            ]}
          />
        )}
      </div>

      <Section title={t('admin.users.requests')}>
        <AccountRequests
          uuid={uuid}
          email={user.email}
          onDeleted={() => {
            setDeleted(true);
            client.removeQueries({ queryKey: adminKeys.user(uuid) });
          }}
        />
      </Section>

      <Section title={t('admin.credits.title')}>
        <CreditChangeForm uuid={uuid} onDone={() => refresh(t('admin.credits.done'))} />
      </Section>

      <Section title={t('admin.users.models')}>
        {detail.data.models.length === 0 && <p className="admin__meta">{t('admin.users.noModels')}</p>}
        <ul className="admin__list">
          {detail.data.models.map((model) => (
            <li key={model.uuid} className="admin__card" data-testid="admin-model">
              <strong>{model.name}</strong>
              <span className="admin__meta">
                {t('admin.users.photos', { count: model.photos })} · {when(model.created_at)}
              </span>
              <ReasonActions
                testId="model-actions"
                onDone={() => refresh(t('admin.users.modelDeleted'))}
                actions={[
                  {
                    id: 'delete',
                    label: t('admin.users.deleteModel'),
                    theme: 'danger',
                    run: (reason) => adminApi.deleteModel(model.uuid, reason),
                  },
                ]}
              />
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t('admin.users.generations')}>
        {detail.data.generations.length === 0 && (
          <p className="admin__meta">{t('admin.users.noGenerations')}</p>
        )}
        <ul className="admin__list">
          {detail.data.generations.map((generation) => (
            <li key={generation.uuid} className="admin__card">
              <GenerationFacts generation={generation} />
            </li>
          ))}
        </ul>
      </Section>

      <UserMoney uuid={uuid} />

      <Section title={t('admin.users.ledger')}>
        <Ledger entries={detail.data.credit_entries} when={when} />
      </Section>

      <Section title={t('admin.users.audit')}>
        {detail.data.audit.length === 0 && <p className="admin__meta">{t('admin.users.noAudit')}</p>}
        <ul className="admin__list">
          {detail.data.audit.map((entry) => (
            <li key={entry.id} className="admin__ledger-row">
              <span>
                <strong>{entry.action}</strong> · {entry.reason}
              </span>
              <span className="admin__meta">{when(entry.created_at)}</span>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

function Ledger({
  entries,
  when,
}: {
  entries: TAdminUserDetail['credit_entries'];
  when(iso: string): string;
}) {
  const { t } = useTranslation();
  if (entries.length === 0) return <p className="admin__meta">{t('admin.users.noLedger')}</p>;
  return (
    <ul className="admin__list" data-testid="admin-ledger">
      {entries.map((entry) => (
        <li key={entry.id} className="admin__ledger-row">
          <span>
            {t(`credits.kinds.${entry.kind}`)}
            <span className="admin__meta">{when(entry.created_at)}</span>
          </span>
          <span className={entry.delta < 0 ? 'admin__minus' : 'admin__plus'}>
            {entry.delta > 0 ? `+${entry.delta}` : entry.delta} → {entry.balance_after}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Grant (a positive number) or take (a negative one) credits with a reason; one click, one entry. */
function CreditChangeForm({ uuid, onDone }: { uuid: string; onDone(): void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // One key per intended change: a double click or a retried request moves credits once.
  const key = useRef(crypto.randomUUID());
  const errors = useFormErrors(['delta', 'reason']);
  const change = useAction({
    run: (delta: number) =>
      adminApi.changeCredits(uuid, { delta, reason: reason.trim(), idempotency_key: key.current }),
    onSuccess: () => {
      key.current = crypto.randomUUID();
      setAmount('');
      setReason('');
      onDone();
    },
    onError: errors.showError,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    const delta = Number(amount.trim());
    if (!/^-?\d+$/.test(amount.trim()) || delta === 0) {
      errors.setAlert(t('admin.credits.badAmount'));
      return;
    }
    if (Math.abs(delta) > STAFF_CREDIT_CHANGE_MAX) {
      errors.setAlert(t('admin.credits.tooMuch', { max: STAFF_CREDIT_CHANGE_MAX }));
      return;
    }
    if (!reason.trim()) {
      errors.setAlert(t('admin.reasonRequired'));
      return;
    }
    change.mutate(delta);
  }

  return (
    <form className="admin__card stack" onSubmit={onSubmit} noValidate data-testid="admin-credits">
      <TextInput
        title={t('admin.credits.amount')}
        hint={t('admin.credits.amountHint')}
        value={amount}
        onValueChange={setAmount}
        inputMode="numeric"
        error={errors.fieldErrors.delta}
        data-testid="admin-credits-amount"
      />
      <TextInput
        title={t('admin.reason')}
        value={reason}
        onValueChange={setReason}
        maxLength={STAFF_REASON_MAX_LENGTH}
        error={errors.fieldErrors.reason}
        data-testid="admin-credits-reason"
      />
      {errors.alert && <Alert>{errors.alert}</Alert>}
      <Button type="submit" size="sm" loading={change.isPending} data-testid="admin-credits-submit">
        {t('admin.credits.apply')}
      </Button>
    </form>
  );
}
