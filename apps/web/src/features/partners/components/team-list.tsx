import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconUsers } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { formatDay } from '../../../lib/dates';
import { formatMoney } from '../../payments';
import { partnerKeys, partnersApi, type TeamFilters } from '../api/partners.api';
import { useMoneyCurrency } from '../hooks/use-money-currency';
import { CurrencySwitch } from './currency-switch';
import { PartnerAvatar } from './partner-avatar';
import '../partners.css';

const PAID_FILTERS = [
  { value: undefined, label: 'partners.linear.all' },
  { value: 'true', label: 'partners.linear.paid' },
  { value: 'false', label: 'partners.linear.unpaid' },
] as const;

/** My team: level tabs with counts, paid / not paid, search by name, each with join date and turnover. */
export function TeamList() {
  const { t, i18n } = useTranslation();
  const [level, setLevel] = useState<number | undefined>(undefined);
  const [paid, setPaid] = useState<'true' | 'false' | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [currency] = useMoneyCurrency();
  const summary = useQuery({ queryKey: partnerKeys.summary(), queryFn: partnersApi.summary });
  const filters: TeamFilters = { level, paid, search: search.trim() || undefined, currency };
  const team = useInfiniteQuery({
    queryKey: partnerKeys.team(filters),
    queryFn: ({ pageParam }) => partnersApi.team(filters, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });
  const members = team.data?.pages.flatMap((page) => page.results) ?? [];
  const total = summary.data?.levels.reduce((sum, l) => sum + l.team, 0);
  const filtered = level !== undefined || paid !== undefined || search.trim() !== '';
  return (
    <div className="partner-team" data-testid="team-list">
      <div className="chips" role="group">
        <button
          type="button"
          className={`chip${level === undefined ? ' is-active' : ''}`}
          onClick={() => setLevel(undefined)}
        >
          {t('partners.linear.allLevels')}
          {total !== undefined ? ` · ${total}` : ''}
        </button>
        {summary.data?.levels.map((l) => (
          <button
            key={l.level}
            type="button"
            className={`chip${level === l.level ? ' is-active' : ''}`}
            onClick={() => setLevel(l.level)}
            data-testid={`team-level-${l.level}`}
          >
            {t('partners.linear.level', { level: l.level })} · {l.team}
          </button>
        ))}
      </div>
      <SegmentedChoice
        className="partner-filter"
        value={paid}
        onChange={setPaid}
        options={PAID_FILTERS.map((filter) => ({ value: filter.value, label: t(filter.label) }))}
      />
      <div className="partner-filters">
        <TextInput
          search
          value={search}
          onValueChange={setSearch}
          placeholder={t('partners.linear.search')}
          maxLength={100}
        />
        <CurrencySwitch />
      </div>
      {team.isPending ? (
        <Spinner />
      ) : team.isError ? (
        <LoadError query={team} />
      ) : members.length === 0 ? (
        <EmptyState
          icon={<IconUsers size={28} />}
          title={t(filtered ? 'partners.linear.emptyFiltered' : 'partners.linear.empty')}
          text={filtered ? undefined : t('partners.linear.emptyText')}
        />
      ) : (
        <>
          {members.map((member) => (
            <Link
              key={member.uuid}
              to={`/profile/${member.uuid}/`}
              className="partner-member"
              data-testid="team-member"
            >
              <PartnerAvatar url={member.avatar_url} name={member.name} small />
              <div className="partner-person__text">
                <span className="partner-person__name">{member.name}</span>
                <span className="partner-muted">
                  {t('partners.linear.level', { level: member.level })} ·{' '}
                  {t('partners.linear.joined', { date: formatDay(member.date_joined, i18n.language) })}
                </span>
              </div>
              <div className="partner-member__side">
                <span>
                  {t('partners.linear.turnover', {
                    amount: formatMoney(member.turnover, currency, i18n.language),
                  })}
                </span>
                {member.paid && <span className="partner-paid">{t('partners.linear.paidBadge')}</span>}
              </div>
            </Link>
          ))}
          {team.hasNextPage && (
            <Button theme="light" onClick={() => void team.fetchNextPage()} loading={team.isFetchingNextPage}>
              {t('partners.linear.more')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
