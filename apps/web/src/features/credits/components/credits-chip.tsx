import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconWallet } from '../../../components/ui/icons';
import { numberFormat } from '../../../lib/locale-fallback';
import { PurchaseSheet } from '../../payments';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { CreditsDialog } from './charge-dialogs';
import '../credits.css';

/**
 * The header's credit balance: it opens the credit balance dialog, so credits can be bought at
 * any time, not only when a generation was refused for want of them.
 */
export default function CreditsChip() {
  const { t, i18n } = useTranslation();
  const balance = useCreditBalance();
  const [open, setOpen] = useState(false);
  const [buying, setBuying] = useState(false);
  const shown = balance.data ? numberFormat(i18n.language).format(balance.data.balance) : '…';
  return (
    <>
      <button
        type="button"
        className="credits-chip"
        onClick={() => setOpen(true)}
        aria-label={`${t('credits.title')}: ${shown}`}
        data-testid="header-credits"
      >
        <IconWallet size={18} />
        <span className="credits-chip__value">{shown}</span>
      </button>
      <CreditsDialog
        open={open}
        refusal={null}
        onClose={() => setOpen(false)}
        onBuy={() => {
          setOpen(false);
          setBuying(true);
        }}
      />
      <PurchaseSheet open={buying} onClose={() => setBuying(false)} preferred="credits" />
    </>
  );
}
