import type { TPaymentProduct } from '@mirra/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconCrown, IconWallet } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { pauseEndsAt, type ReceivedRefusal } from '../charge-errors';
import { formatCountdown, secondsLeft } from '../../../lib/countdown';
import { useNow } from '../../../lib/use-now';
import { formatDay } from '../../../lib/dates';
import { PurchaseSheet } from '../../payments';
import { CreditHistorySheet } from './credit-history-sheet';

/**
 * The dialog for a refused paid action: the credit balance dialog, or the generation limit dialog;
 * both lead to the one purchase sheet (a credit pack chosen first, or the unlimited package).
 */
export function ChargeDialogs({
  refusal,
  onClose,
  onSkip,
  returnPath,
}: {
  refusal: ReceivedRefusal | null;
  onClose(): void;
  onSkip(): void;
  /** Where a purchase made from these dialogs comes back to; the current page when not given. */
  returnPath?: string;
}) {
  const [shown, setShown] = useState(refusal);
  const [purchase, setPurchase] = useState<TPaymentProduct['kind'] | null>(null);
  // Keep the last refusal while the sheet plays its closing animation.
  if (refusal && refusal !== shown) setShown(refusal);
  return (
    <>
      <CreditsDialog
        open={refusal?.kind === 'credits'}
        refusal={shown?.kind === 'credits' ? shown : null}
        onClose={onClose}
        onBuy={() => setPurchase('credits')}
      />
      <LimitDialog
        open={refusal?.kind === 'limit'}
        refusal={shown?.kind === 'limit' ? shown : null}
        onClose={onClose}
        onSkip={onSkip}
        onBuy={() => setPurchase('unlimited')}
      />
      <PurchaseSheet
        open={purchase !== null}
        onClose={() => setPurchase(null)}
        preferred={purchase ?? 'credits'}
        returnPath={returnPath}
      />
    </>
  );
}

/**
 * Credit balance dialog: the shortfall when a paid action was refused ('You don't have enough
 * {difference} credits for generation.'), the balance, when a running unlimited package ends, buy
 * more, and the history. Opened from the header it has no shortfall: packs can be bought any time.
 */
export function CreditsDialog({
  open,
  refusal,
  onClose,
  onBuy,
}: {
  open: boolean;
  refusal: Extract<ReceivedRefusal, { kind: 'credits' }> | null;
  onClose(): void;
  onBuy(): void;
}) {
  const { t, i18n } = useTranslation();
  const [historyOpen, setHistoryOpen] = useState(false);
  const balance = useCreditBalance({ enabled: open });
  const shownBalance = balance.data?.balance ?? refusal?.balance ?? null;
  const unlimitedUntil = balance.data?.unlimited_until ?? null;
  return (
    <>
      <Sheet open={open} onClose={onClose} title={t('credits.title')}>
        <div className="stack" data-testid="credits-dialog">
          <div className="balance-card">
            <span className="balance-card__label">{t('credits.balance')}</span>
            <span className="balance-card__value" data-testid="credits-balance">
              {shownBalance ?? '—'}
            </span>
            {unlimitedUntil && (
              <span className="balance-card__label" data-testid="credits-unlimited-until">
                {t('payments.unlimitedUntil', { date: formatDay(unlimitedUntil, i18n.language) })}
              </span>
            )}
          </div>
          {refusal && (
            <p className="lead" data-testid="credits-shortfall">
              {t('messages.notEnoughCredits', { count: refusal.difference })}
            </p>
          )}
          <Button
            theme="primary"
            size="lg"
            block
            icon={<IconCrown size={20} />}
            onClick={onBuy}
            data-testid="credits-buy-more"
          >
            {t('messages.buyMore')}
          </Button>
          <Button
            theme="light"
            size="lg"
            block
            icon={<IconWallet size={20} />}
            onClick={() => setHistoryOpen(true)}
            data-testid="credits-history-open"
          >
            {t('credits.history')}
          </Button>
        </div>
      </Sheet>
      <CreditHistorySheet open={historyOpen} onClose={() => setHistoryOpen(false)} />
    </>
  );
}

/**
 * Generation limit dialog: the free tier's pause explained, with purchase, or skip:
 * wait out the pause and the generation starts by itself.
 */
function LimitDialog({
  open,
  refusal,
  onClose,
  onSkip,
  onBuy,
}: {
  open: boolean;
  refusal: Extract<ReceivedRefusal, { kind: 'limit' }> | null;
  onClose(): void;
  onSkip(): void;
  onBuy(): void;
}) {
  const { t } = useTranslation();
  const now = useNow(open);
  // The pause left, live; never more than the server said (the clock may lag a tick behind).
  const left = refusal ? Math.min(refusal.waitSeconds, secondsLeft(pauseEndsAt(refusal), now)) : 0;
  return (
    <Sheet open={open} onClose={onClose} title={t('limit.title')}>
      <div className="stack" data-testid="limit-dialog">
        <p className="lead" data-testid="limit-text">
          {t('messages.delay', { first: refusal?.first ?? 0, count: refusal?.seconds ?? 0 })}
        </p>
        <p className="muted-note" data-testid="limit-wait">
          {t('limit.wait', { time: formatCountdown(left) })}
        </p>
        <Button
          theme="primary"
          size="lg"
          block
          icon={<IconCrown size={20} />}
          onClick={onBuy}
          data-testid="limit-purchase"
        >
          {t('limit.purchase')}
        </Button>
        <Button theme="light" size="lg" block onClick={onSkip} data-testid="limit-skip">
          {t('limit.skip')}
        </Button>
      </div>
    </Sheet>
  );
}
