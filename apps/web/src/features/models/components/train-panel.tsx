import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { IconSparkles } from '../../../components/ui/icons';
import type { TModel } from '../../../lib/api-types';
import { useCreditBalance } from '../../credits';
import { canTrain } from '../model-status';
import '../models.css';

/**
 * The way to training: what it costs and the balance, said before anything is charged, and the
 * button, which waits for enough good photos and for uploads still on their way.
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
  const balance = useCreditBalance();
  const short = balance.data ? balance.data.balance < model.training_price : false;
  return (
    <div className="train-panel" data-testid="train-panel">
      <div className="price-line">
        <span>
          {t('model.price')}{' '}
          <strong data-testid="training-price">
            {t('messages.credits', { count: model.training_price })}
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
      <Button
        theme="primary"
        size="lg"
        block
        loading={pending}
        disabled={!canTrain(model) || isUploading}
        icon={<IconSparkles size={20} />}
        onClick={onTrain}
        data-testid="train-submit"
      >
        {label}
      </Button>
      <p className="muted-note">{t('model.trainingNote')}</p>
    </div>
  );
}
