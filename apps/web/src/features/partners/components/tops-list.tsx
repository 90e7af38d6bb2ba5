import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconCrown } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Spinner } from '../../../components/ui/spinner';
import { formatMoney } from '../../payments';
import { partnerKeys, partnersApi } from '../api/partners.api';
import { useMoneyCurrency } from '../hooks/use-money-currency';
import { CurrencySwitch } from './currency-switch';
import { PartnerAvatar } from './partner-avatar';
import '../partners.css';

const PERIODS = ['month', 'all'] as const;
const METRICS = ['income', 'team'] as const;

/** The tops: rank, avatar, name and income or team size, this month or all time. */
export function TopsList() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('month');
  const [by, setBy] = useState<(typeof METRICS)[number]>('income');
  const [currency] = useMoneyCurrency();
  const tops = useQuery({
    queryKey: partnerKeys.tops(period, by, currency),
    queryFn: () => partnersApi.tops(period, by, currency),
  });
  return (
    <div className="partner-team" data-testid="tops-list">
      <div className="partner-filters">
        <SegmentedChoice
          itemClassName="partner-filters__item"
          value={period}
          onChange={setPeriod}
          options={PERIODS.map((p) => ({ value: p, label: t(`partners.tops.${p}`) }))}
        />
        {by === 'income' && <CurrencySwitch />}
      </div>
      <SegmentedChoice
        value={by}
        onChange={setBy}
        options={METRICS.map((m) => ({ value: m, label: t(`partners.tops.${m}`) }))}
      />
      {tops.isPending ? (
        <Spinner />
      ) : tops.isError ? (
        <LoadError query={tops} />
      ) : tops.data.results.length === 0 ? (
        <EmptyState
          icon={<IconCrown size={28} />}
          title={t('partners.tops.empty')}
          text={t('partners.tops.emptyText')}
        />
      ) : (
        <>
          {tops.data.results.map((row) => (
            <Link
              key={row.uuid}
              to={`/profile/${row.uuid}/`}
              className={`partner-member${row.is_me ? ' is-me' : ''}`}
              data-testid="top-entry"
            >
              <span className="partner-rank">{row.rank}</span>
              <PartnerAvatar url={row.avatar_url} name={row.name} small />
              <div className="partner-person__text">
                <span className="partner-person__name">
                  {row.name}
                  {row.is_me ? ` (${t('partners.tops.you')})` : ''}
                </span>
              </div>
              <div className="partner-member__side">
                <strong>
                  {by === 'income'
                    ? formatMoney(row.value, tops.data.currency, i18n.language)
                    : t('partners.tops.people', { count: row.value })}
                </strong>
              </div>
            </Link>
          ))}
          {tops.data.computed_at && (
            <span className="partner-muted">
              {t('partners.tops.updated', {
                time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(
                  new Date(tops.data.computed_at),
                ),
              })}
            </span>
          )}
        </>
      )}
    </div>
  );
}
