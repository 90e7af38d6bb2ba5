import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  CALCULATOR_MAX_AVERAGE,
  CALCULATOR_MAX_PARTNERS,
  type TCalculatorResult,
  type TPartnerSummary,
} from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconChevron, IconCrown, IconUsers, IconWallet } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { ApiError } from '../../../lib/api-error';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { numberFormat } from '../../../lib/locale-fallback';
import { useShareLink } from '../../../lib/use-share-link';
import { formatMoney } from '../../payments';
import { partnerKeys, partnersApi } from '../api/partners.api';
import { parseMoney } from '../transfer.models';
import { IncomeChart } from './income-chart';
import { useMoneyCurrency } from '../hooks/use-money-currency';
import { CurrencySwitch, currencySign } from './currency-switch';
import { PartnerAvatar } from './partner-avatar';
import { PromoMaterials } from './promo-materials';
import '../partners.css';

const STATS = [
  'referals',
  'payedPartners',
  'income',
  'payouts',
  'turnoverMonth',
  'turnoverAll',
  'firstLineTurnover',
] as const;
const MONEY_STATS = new Set<string>([
  'income',
  'payouts',
  'turnoverMonth',
  'turnoverAll',
  'firstLineTurnover',
]);

/** The partner programme screen: link, curator, statistics, levels, calculator, FAQ, promo materials. */
export function PartnerProgramme() {
  const { t } = useTranslation();
  const summary = useQuery({ queryKey: partnerKeys.summary(), queryFn: partnersApi.summary });
  if (summary.isPending) return <Spinner />;
  if (summary.isError) return <LoadError query={summary} />;
  const data = summary.data;
  return (
    <>
      <p className="lead">{t('partners.intro')}</p>
      <ReflinkCard summary={data} />
      <WalletCard />
      <Statistics />
      <div className="list">
        <Link to="/wallet" className="list__row">
          <IconWallet size={20} />
          <span className="list__label">{t('partners.wallet')}</span>
          <IconChevron size={18} />
        </Link>
        <Link to="/structure/linear/" className="list__row">
          <IconUsers size={20} />
          <span className="list__label">{t('partners.team')}</span>
          <IconChevron size={18} />
        </Link>
        <Link to="/structure/tops/" className="list__row">
          <IconCrown size={20} />
          <span className="list__label">{t('partners.rating')}</span>
          <IconChevron size={18} />
        </Link>
      </div>
      <Levels summary={data} />
      <Calculator summary={data} />
      <CuratorCard summary={data} />
      <Faq />
      <PromoMaterials reflink={data.reflink} telegramReflink={data.reflink_telegram} />
    </>
  );
}

function ReflinkCard({ summary }: { summary: TPartnerSummary }) {
  const { t } = useTranslation();
  const share = useShareLink();
  const showTopinfo = useAppStore((s) => s.showTopinfo);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showTopinfo('success', t('common.copied'));
    } catch {
      showTopinfo('error', t('common.copyFailed'));
    }
  };
  const links = [
    { label: t('partners.reflink'), url: summary.reflink, testId: 'reflink' },
    ...(summary.reflink_telegram
      ? [{ label: t('partners.reflinkTelegram'), url: summary.reflink_telegram, testId: 'reflink-telegram' }]
      : []),
  ];
  return (
    <div className="card">
      {links.map((link) => (
        <div key={link.testId} className="partner-section">
          <span className="card__label">{link.label}</span>
          <code className="partner-reflink" data-testid={link.testId}>
            {link.url}
          </code>
          <div className="partner-actions">
            <Button theme="primary" size="sm" onClick={() => void copy(link.url)}>
              {t('partners.copy')}
            </Button>
            <Button
              theme="primary-outline"
              size="sm"
              onClick={() => void share(link.url, t('partners.shareTitle'))}
            >
              {t('partners.share')}
            </Button>
          </div>
        </div>
      ))}
    </div>
  );
}

/** My partner money now: what can be spent or paid out, and what is still frozen for the hold. */
function WalletCard() {
  const { t, i18n } = useTranslation();
  const wallet = useQuery({ queryKey: partnerKeys.payouts(), queryFn: partnersApi.payouts });
  if (!wallet.data) return null;
  const balances = wallet.data.balances.filter((b) => b.currency === 643 || b.available || b.frozen);
  return (
    <section className="card" data-testid="partner-wallet">
      <span className="card__label">{t('partners.wallet')}</span>
      {balances.map((b) => (
        <div key={b.currency} className="partner-stats">
          <div className="stat stat--plain" data-testid={`wallet-available-${b.currency}`}>
            <span className="stat__value">{formatMoney(b.available, b.currency, i18n.language)}</span>
            <span className="stat__label">{t('partners.balance.available')}</span>
          </div>
          <div className="stat stat--plain" data-testid={`wallet-frozen-${b.currency}`}>
            <span className="stat__value">{formatMoney(b.frozen, b.currency, i18n.language)}</span>
            <span className="stat__label">{t('partners.balance.frozen')}</span>
          </div>
        </div>
      ))}
      <div className="partner-actions">
        <ButtonLink to="/wallet/pay-out/" theme="primary-outline" size="sm">
          {t('partners.transfer.ways.payout')}
        </ButtonLink>
        <ButtonLink to="/wallet/pay-out/?to=credits" theme="light" size="sm" data-testid="partner-to-credits">
          {t('partners.transfer.ways.credits')}
        </ButtonLink>
        <ButtonLink to="/wallet/pay-out/?to=user" theme="light" size="sm" data-testid="partner-to-user">
          {t('partners.transfer.ways.user')}
        </ButtonLink>
      </div>
    </section>
  );
}

function Statistics() {
  const { t, i18n } = useTranslation();
  const [currency] = useMoneyCurrency();
  const statistics = useQuery({
    queryKey: partnerKeys.statistics(currency),
    queryFn: () => partnersApi.statistics(currency),
  });
  if (statistics.isPending) return <Spinner />;
  if (statistics.isError) return <LoadError query={statistics} />;
  const data = statistics.data;
  return (
    <section className="card" data-testid="partner-statistics">
      <div className="partner-heading">
        <span className="card__label">{t('partners.stats.title')}</span>
        <CurrencySwitch />
      </div>
      <div className="partner-stats">
        {STATS.map((stat) => (
          <div key={stat} className="stat" data-testid={`stat-${stat}`}>
            <span className="stat__value">
              {MONEY_STATS.has(stat)
                ? formatMoney(data[stat], data.currency, i18n.language)
                : numberFormat(i18n.language).format(data[stat])}
            </span>
            <span className="stat__label">{t(`partners.stats.${stat}`)}</span>
          </div>
        ))}
      </div>
      <span className="card__label">{t('partners.stats.chart')}</span>
      <IncomeChart statistics={data} />
    </section>
  );
}

function Levels({ summary }: { summary: TPartnerSummary }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card" data-testid="partner-levels">
      <span className="card__label">{t('partners.levels.title')}</span>
      <div className="partner-levels">
        {summary.levels.map((level) => (
          <div key={level.level} className="partner-level">
            <div className="partner-person__text">
              <strong>{t('partners.levels.level', { level: level.level })}</strong>
              <span className="partner-muted">
                {t('partners.levels.percent', {
                  percent: numberFormat(i18n.language).format(level.percent),
                })}
              </span>
              <span className="partner-muted">
                {t('partners.levels.team', { total: level.team, paid: level.team_paid })}
              </span>
              {!level.unlocked && (
                <span className="partner-muted">{t('partners.levels.needs', { count: level.missing })}</span>
              )}
            </div>
            <span className={`partner-level__badge${level.unlocked ? '' : ' partner-level__badge--locked'}`}>
              {level.unlocked ? t('partners.levels.active') : t('partners.calculator.locked')}
            </span>
          </div>
        ))}
      </div>
      <p className="partner-muted">{t('partners.hold', { count: summary.hold_days })}</p>
    </section>
  );
}

interface CalculatorAnswer {
  result: TCalculatorResult;
  /** The currency the average was typed in: the result is in it. */
  currency: number;
}

/** A whole number of people 0…CALCULATOR_MAX_PARTNERS as typed ("1 200" too); null for anything else. */
function parsePeople(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0]/g, '');
  if (!/^\d{1,7}$/.test(cleaned)) return null;
  const people = Number(cleaned);
  return people <= CALCULATOR_MAX_PARTNERS ? people : null;
}

/**
 * Expected income from people per level at an average purchase. What is typed is never rewritten:
 * a count that is not a whole number of people (1.5, −5) or an average beyond the bounds is refused
 * under its input, and the server's refusal is said too. The last good result stays, marked as for
 * the previous figures, so the person sees both what they had and that it is not for what they typed.
 * The average starts at the plan's price in the chosen currency (the server declares it).
 */
function Calculator({ summary }: { summary: TPartnerSummary }) {
  const { t, i18n } = useTranslation();
  const [partners, setPartners] = useState<string[]>(
    summary.levels.map((_, i) => String([5, 20, 100][i] ?? 0)),
  );
  const [currency] = useMoneyCurrency();
  // null until the person types: the average then follows the currency's starting figure.
  const [typedAverage, setAverage] = useState<string | null>(null);
  const averageIn = (of: number) =>
    typedAverage ?? String((summary.calculator_average[String(of)] ?? 0) / 100);
  const average = averageIn(currency);
  const [errors, setErrors] = useState<{ partners: (string | null)[]; average: string | null }>({
    partners: [],
    average: null,
  });
  const [failed, setFailed] = useState<string | null>(null);
  const [answer, setAnswer] = useState<CalculatorAnswer | null>(null);
  const [stale, setStale] = useState(false);
  const [pending, setPending] = useState(false);
  const whole = (value: number) => numberFormat(i18n.language).format(value);

  const run = async (of: number) => {
    const counts = partners.map(parsePeople);
    const minor = parseMoney(averageIn(of));
    const averageOk = minor !== null && minor <= CALCULATOR_MAX_AVERAGE;
    const found = {
      partners: counts.map((count) =>
        count === null
          ? t('partners.calculator.errors.partners', { max: whole(CALCULATOR_MAX_PARTNERS) })
          : null,
      ),
      average: averageOk
        ? null
        : t('partners.calculator.errors.average', {
            max: formatMoney(CALCULATOR_MAX_AVERAGE, of, i18n.language),
          }),
    };
    setErrors(found);
    setFailed(null);
    if (found.average || found.partners.some(Boolean) || minor === null) {
      setStale(answer !== null);
      return;
    }
    setPending(true);
    try {
      const result = await partnersApi.calculator(counts.join(','), minor);
      setAnswer({ result, currency: of });
      setStale(false);
    } catch (error) {
      // A refused query (the server's 400) is about the figures; anything else says what happened.
      const shown =
        error instanceof ApiError && error.status === 400
          ? t('partners.calculator.errors.failed')
          : (describeError(t, error).alert ?? t('partners.calculator.errors.failed'));
      setFailed(shown);
      setStale(answer !== null);
    } finally {
      setPending(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(currency);
  };
  // A result for another currency (chosen on another switch of the screen) is not for these figures.
  const shownStale = stale || (answer !== null && answer.currency !== currency);
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="partner-calculator">
      <div className="partner-heading">
        <span className="card__label">{t('partners.calculator.title')}</span>
        {/* Another currency re-asks at once when a result is on screen: the figures now mean it. */}
        <CurrencySwitch
          onChange={(next) => {
            if (answer) void run(next);
          }}
        />
      </div>
      <div className="partner-calc">
        {summary.levels.map((level, i) => (
          <TextInput
            key={level.level}
            title={t('partners.calculator.partners', { level: level.level })}
            inputMode="numeric"
            name={`partners-${level.level}`}
            value={partners[i] ?? ''}
            error={errors.partners[i] ?? undefined}
            onValueChange={(value) => {
              setErrors((current) => ({
                ...current,
                partners: current.partners.map((e, j) => (j === i ? null : e)),
              }));
              setPartners((current) => current.map((v, j) => (j === i ? value : v)));
            }}
          />
        ))}
        <TextInput
          title={t('partners.calculator.averageIn', { sign: currencySign(currency) })}
          inputMode="decimal"
          name="average"
          value={average}
          error={errors.average ?? undefined}
          onValueChange={(value) => {
            setErrors((current) => ({ ...current, average: null }));
            setAverage(value);
          }}
        />
      </div>
      <Button type="submit" theme="primary" size="sm" loading={pending}>
        {t('partners.calculator.calculate')}
      </Button>
      {failed && <Alert tone="error">{failed}</Alert>}
      {answer && (
        <div
          className={`partner-section${shownStale ? ' partner-calc--stale' : ''}`}
          data-testid="calculator-result"
          data-stale={shownStale || undefined}
        >
          <span className="card__label">{t('partners.calculator.result')}</span>
          {shownStale && <span className="partner-muted">{t('partners.calculator.stale')}</span>}
          <span className="partner-calc__result">
            {formatMoney(answer.result.total, answer.currency, i18n.language)}
          </span>
          {answer.result.levels.map((level) => (
            <span key={level.level} className="partner-muted">
              {t('partners.levels.level', { level: level.level })}:{' '}
              {level.unlocked
                ? formatMoney(level.income, answer.currency, i18n.language)
                : t('partners.calculator.locked')}
            </span>
          ))}
          <span className="partner-muted">{t('partners.hold', { count: answer.result.hold_days })}</span>
        </div>
      )}
    </form>
  );
}

function CuratorCard({ summary }: { summary: TPartnerSummary }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const curator = summary.curator;
  const toggle = async (show: boolean) => {
    setSaving(true);
    try {
      queryClient.setQueryData(partnerKeys.summary(), await partnersApi.saveSettings(show));
    } catch (error) {
      useAppStore
        .getState()
        .showTopinfo('error', describeError(t, error).alert ?? t('errors.common.internal'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="card" data-testid="partner-curator">
      <span className="card__label">{t('partners.curator.title')}</span>
      {curator ? (
        <div className="partner-person">
          <PartnerAvatar url={curator.avatar_url} name={curator.name} />
          <div className="partner-person__text">
            <Link className="partner-person__name" to={`/profile/${curator.uuid}/`}>
              {curator.name}
            </Link>
            {!curator.contact_url && <span className="partner-muted">{t('partners.curator.hidden')}</span>}
          </div>
          {curator.contact_url && (
            <a
              className="btn btn--primary-outline btn--sm"
              href={curator.contact_url}
              target="_blank"
              rel="noreferrer"
            >
              {t('partners.curator.contact')}
            </a>
          )}
        </div>
      ) : (
        <p className="partner-muted">{t('partners.curator.none')}</p>
      )}
      <label className="partner-toggle">
        <input
          type="checkbox"
          checked={summary.show_contact}
          disabled={saving}
          onChange={(event) => void toggle(event.target.checked)}
        />
        <span>
          {t('partners.curator.showMine')}
          <br />
          <span className="partner-muted">{t('partners.curator.showMineHint')}</span>
        </span>
      </label>
    </section>
  );
}

function Faq() {
  const { t } = useTranslation();
  return (
    <section className="card partner-faq">
      <span className="card__label">{t('partners.faq.title')}</span>
      {[1, 2, 3, 4, 5].map((n) => (
        <details key={n}>
          <summary>{t(`partners.faq.q${n}`)}</summary>
          <p>{t(`partners.faq.a${n}`)}</p>
        </details>
      ))}
    </section>
  );
}
