import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TAdminPayout } from '@mirra/contracts';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconCheck } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { useAppStore } from '../../../lib/app-store';
import { useSession } from '../../../lib/session';
import { formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../../payments';
import { adminApi, adminKeys } from '../api/admin.api';
import { ReasonActions } from './reason-actions';

/** Pending pay-outs, oldest first: send the money, then mark it paid; or refuse with a reason. */
export function PayoutQueue() {
  const { t } = useTranslation();
  const queue = useQuery({ queryKey: adminKeys.payouts(), queryFn: adminApi.payouts });
  if (queue.isPending) return <Spinner size={28} />;
  if (queue.isError) return <LoadError query={queue} />;
  if (queue.data.results.length === 0) {
    return <EmptyState icon={<IconCheck size={28} />} title={t('admin.payouts.empty')} />;
  }
  return (
    <ul className="admin__list" data-testid="admin-payouts">
      {queue.data.results.map((payout) => (
        <Payout key={payout.uuid} payout={payout} />
      ))}
    </ul>
  );
}

function Payout({ payout }: { payout: TAdminPayout }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [reference, setReference] = useState('');
  // One's own pay-out is approved by someone else (the server refuses it too): not offered here.
  const own = useSession((state) => state.user?.uuid === payout.user_uuid);
  const amount = formatMoney(payout.amount, payout.currency, i18n.language);
  return (
    <li className="admin__card" data-testid="admin-payout" data-payout={payout.uuid}>
      <h2 className="admin__name">{amount}</h2>
      <dl className="admin__dl">
        <dt>{t('admin.payouts.method')}</dt>
        <dd>{t(`admin.payouts.methods.${payout.method}`)}</dd>
        {Object.entries(payout.requisites).map(([key, value]) => (
          <FieldRow key={key} name={key} value={value} />
        ))}
        <dt>{t('admin.payouts.asked')}</dt>
        <dd>{formatDateTime(payout.created_at, i18n.language)}</dd>
        <dt>{t('admin.users.email')}</dt>
        <dd>{payout.user_email ?? '—'}</dd>
      </dl>
      <Link className="admin__meta" to={`/admin/users/${payout.user_uuid}/`}>
        {t('admin.generations.owner')}
      </Link>
      {own && (
        <p className="admin__meta" data-testid="payout-own">
          {t('admin.payouts.ownNote')}
        </p>
      )}
      {!own && (
        <TextInput
          title={t('admin.payouts.reference')}
          value={reference}
          onValueChange={setReference}
          maxLength={200}
          data-testid="payout-reference"
        />
      )}
      <ReasonActions
        testId="payout-actions"
        onDone={(id) => {
          useAppStore
            .getState()
            .showTopinfo(
              'success',
              t(id === 'approve' ? 'admin.payouts.approved' : 'admin.payouts.rejected'),
            );
          void client.invalidateQueries({ queryKey: adminKeys.payouts() });
        }}
        actions={[
          ...(own
            ? []
            : [
                {
                  id: 'approve',
                  label: t('admin.payouts.approve'),
                  theme: 'primary' as const,
                  confirm: t('admin.payouts.approveConfirm', { amount }),
                  run: (reason: string) => adminApi.approvePayout(payout.uuid, reason, reference.trim()),
                },
              ]),
          {
            id: 'reject',
            label: t('admin.payouts.reject'),
            theme: 'danger',
            confirm: t('admin.payouts.rejectConfirm', { amount }),
            run: (reason) => adminApi.rejectPayout(payout.uuid, reason),
          },
        ]}
      />
    </li>
  );
}

/** A requisites field under its name (card, holder, phone, bank, network, address). */
function FieldRow({ name, value }: { name: string; value: string }) {
  const { t } = useTranslation();
  return (
    <>
      <dt>{t(`admin.payouts.fields.${name}`)}</dt>
      <dd className="admin__mono">{value}</dd>
    </>
  );
}
