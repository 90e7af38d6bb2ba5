import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconWallet } from '../../../components/ui/icons';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { CreditHistorySheet } from './credit-history-sheet';

/** My credit balance; it opens the history (charges, refunds, royalties for my posts). */
export function CreditsButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const balance = useCreditBalance();
  return (
    <>
      <Button
        theme="light"
        size="sm"
        icon={<IconWallet size={18} />}
        loading={balance.isPending}
        onClick={() => setOpen(true)}
        data-testid="profile-credits"
      >
        {balance.data ? t('messages.credits', { count: balance.data.balance }) : t('credits.history')}
      </Button>
      <CreditHistorySheet open={open} onClose={() => setOpen(false)} />
    </>
  );
}
