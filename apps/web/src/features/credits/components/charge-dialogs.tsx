import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconCrown, IconWallet } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { pauseEndsAt, type ReceivedRefusal } from '../charge-errors';
import { formatCountdown, secondsLeft } from '../../../lib/countdown';
import { useNow } from '../../../lib/use-now';
import { PurchaseSheet } from '../../payments';
import { CreditHistorySheet } from './credit-history-sheet';

export const SUBSCRIPTION_PATH = '/settings/subscription/';

/** The dialog for a refused paid action: the credit balance dialog, or the generation limit dialog. */
export function ChargeDialogs({
  refusal,
  onClose,
  onSkip,
}: {
  refusal: ReceivedRefusal | null;
  onClose(): void;
  onSkip(): void;
}) {
  const [shown, setShown] = useState(refusal);
  // Keep the last refusal while the sheet plays its closing animation.
  if (refusal && refusal !== shown) setShown(refusal);
  return (
    <>
      <CreditsDialog
        open={refusal?.kind === 'credits'}
        refusal={shown?.kind === 'credits' ? shown : null}
        onClose={onClose}
      />
      <LimitDialog
        open={refusal?.kind === 'limit'}
        refusal={shown?.kind === 'limit' ? shown : null}
        onClose={onClose}
        onSkip={onSkip}
      />
    </>
  );
}

/**
 * Credit balance dialog: the shortfall ('You don't have enough {difference} credits
 * for generation.'), the balance, buy more, and the history.
 */
function CreditsDialog({
  open,
  refusal,
  onClose,
}: {
  open: boolean;
  refusal: Extract<ReceivedRefusal, { kind: 'credits' }> | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [purchaseOpen, setPurchaseOpen] = useState(false);
  const balance = useCreditBalance({ enabled: open });
  const shownBalance = balance.data?.balance ?? refusal?.balance ?? null;
  return (
    <>
      <Sheet open={open} onClose={onClose} title={t('credits.title')}>
        <div className="stack" data-testid="credits-dialog">
          <div className="balance-card">
            <span className="balance-card__label">{t('credits.balance')}</span>
            <span className="balance-card__value" data-testid="credits-balance">
              {shownBalance ?? '—'}
            </span>
          </div>
          <p className="lead" data-testid="credits-shortfall">
            {t('messages.notEnoughCredits', { count: refusal?.difference ?? 1 })}
          </p>
          <Button
            theme="primary"
            size="lg"
            block
            icon={<IconCrown size={20} />}
            onClick={() => setPurchaseOpen(true)}
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
      <PurchaseSheet open={purchaseOpen} onClose={() => setPurchaseOpen(false)} preferred="credits" />
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
}: {
  open: boolean;
  refusal: Extract<ReceivedRefusal, { kind: 'limit' }> | null;
  onClose(): void;
  onSkip(): void;
}) {
  const { t } = useTranslation();
  const [purchaseOpen, setPurchaseOpen] = useState(false);
  const now = useNow(open);
  // The pause left, live; never more than the server said (the clock may lag a tick behind).
  const left = refusal ? Math.min(refusal.waitSeconds, secondsLeft(pauseEndsAt(refusal), now)) : 0;
  return (
    <>
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
            onClick={() => setPurchaseOpen(true)}
            data-testid="limit-purchase"
          >
            {t('limit.purchase')}
          </Button>
          <Button theme="light" size="lg" block onClick={onSkip} data-testid="limit-skip">
            {t('limit.skip')}
          </Button>
        </div>
      </Sheet>
      <PurchaseSheet open={purchaseOpen} onClose={() => setPurchaseOpen(false)} preferred="unlimited" />
    </>
  );
}
