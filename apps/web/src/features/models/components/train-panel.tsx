import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { IconSparkles } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import type { TModel } from '../../../lib/api-types';
import { useCreditBalance } from '../../credits';
import { canTrain, trainingTimeNote } from '../model-status';
import { isTrainReturn, TRAIN_MARKER } from '../train-return';
import { isLiveCheckLink, LIVE_CHECK_PARAM } from '../live-check';
import { ConsentLinkPanel } from './consent-link-panel';
import { LiveCheckSheet } from './live-check-sheet';
import '../models.css';

/**
 * The way to training: what it costs and the balance, said before anything is charged, and the
 * button, which waits for enough good photos and for uploads still on their way. Training spends
 * credits, so the button asks first (price, balance and how long it takes) and only the
 * confirmation starts it. Back from a purchase made to afford it, the question is asked at once
 * (once the payment's result was seen), so the person goes on where they stopped. Before the
 * first question comes the live check (a model is only ever of the person at the camera); the
 * link a phone follows to take it opens it at once.
 */
export function TrainPanel({
  model,
  isUploading,
  pending,
  label,
  onTrain,
}: {
  model: TModel;
  isUploading: boolean;
  pending: boolean;
  label: string;
  onTrain(): void;
}) {
  const { t } = useTranslation();
  const [isAsking, setAsking] = useState(false);
  const [params, setParams] = useSearchParams();
  const isReturn = isTrainReturn(params) && canTrain(model) && !isUploading;
  const isOpen = isAsking || isReturn;
  // A model of someone else is confirmed by that person's own check, through the consent link.
  const isOther = model.subject === 'other';
  const isCheckPassed = model.live_check === 'passed' && (!isOther || model.consent === 'confirmed');
  const [isChecking, setChecking] = useState(() => isLiveCheckLink(params) && !isCheckPassed && !isOther);
  const closeCheck = () => {
    setChecking(false);
    if (params.has(LIVE_CHECK_PARAM)) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(LIVE_CHECK_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  };
  const close = () => {
    setAsking(false);
    // The question is asked once per return: a reload does not ask again.
    if (params.has(TRAIN_MARKER)) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(TRAIN_MARKER);
          return next;
        },
        { replace: true },
      );
    }
  };
  const balance = useCreditBalance();
  const isFree = model.training_price === 0;
  const short = balance.data ? balance.data.balance < model.training_price : false;
  const priceLine = (
    <div className="price-line">
      {/* "Training costs" goes with a price only: a free training is said as free, in one phrase. */}
      <span>
        {isFree ? null : `${t('model.price')} `}
        <strong data-testid="training-price">
          {isFree ? t('model.priceFree') : t('messages.credits', { count: model.training_price })}
        </strong>
      </span>
      {balance.data && (
        <span className={short ? 'price-line__short' : undefined}>
          {t('model.balance')}{' '}
          <strong data-testid="training-balance">
            {t('messages.credits', { count: balance.data.balance })}
          </strong>
        </span>
      )}
    </div>
  );
  const timeNote = trainingTimeNote(model.training_seconds);
  const priceText = t('messages.credits', { count: model.training_price });
  return (
    <div className="train-panel" data-testid="train-panel">
      {isOther && <ConsentLinkPanel model={model} />}
      {priceLine}
      <Button
        theme="primary"
        size="lg"
        block
        loading={pending}
        disabled={!canTrain(model) || isUploading || (isOther && !isCheckPassed)}
        icon={<IconSparkles size={20} />}
        onClick={() => (isCheckPassed ? setAsking(true) : setChecking(true))}
        data-testid="train-submit"
      >
        {label}
      </Button>
      {!isCheckPassed && !isOther && (
        <p className="muted-note" data-testid="live-check-note">
          {t('liveCheck.needed')}
        </p>
      )}
      <p className="muted-note" data-testid="training-time-note">
        {t(timeNote.key, timeNote.values)}
      </p>
      <LiveCheckSheet
        modelUuid={model.uuid}
        open={isChecking}
        onClose={closeCheck}
        onPassed={() => {
          closeCheck();
          setAsking(true);
        }}
      />
      <Sheet open={isOpen} onClose={close} title={t('model.confirmTitle')}>
        <div className="stack" data-testid="train-confirm-sheet">
          {priceLine}
          <p data-testid="train-confirm-text">
            {isFree ? t('model.confirmFree') : t('model.confirmPaid', { price: priceText })}
          </p>
          <p className="muted-note">{t(timeNote.key, timeNote.values)}</p>
          <Button
            theme="primary"
            size="lg"
            block
            icon={<IconSparkles size={20} />}
            onClick={() => {
              close();
              onTrain();
            }}
            data-testid="train-confirm"
          >
            {isFree ? t('model.confirmStartFree') : t('model.confirmStart', { price: priceText })}
          </Button>
          <Button theme="light" size="lg" block onClick={close} data-testid="train-cancel">
            {t('model.cancel')}
          </Button>
        </div>
      </Sheet>
    </div>
  );
}
