import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconTelegram } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/error-messages';
import { useTelegramSignIn } from '../hooks/use-telegram-sign-in';
import '../auth.css';

/** The messenger sign-in button, and the "follow the link in Telegram" screen while waiting. */
export function TelegramSignIn({ onWaitingChange }: { onWaitingChange?(waiting: boolean): void }) {
  const { t } = useTranslation();
  const { state, start, reset } = useTelegramSignIn();

  if (state.step === 'waiting') {
    return (
      <div className="tg-wait" data-testid="telegram-waiting">
        <div className="tg-wait__badge">
          <IconTelegram size={34} />
        </div>
        <h3 className="tg-wait__title">{t('auth.telegram.waitTitle')}</h3>
        <p className="tg-wait__text">{t('auth.telegram.waitText')}</p>
        <a
          className="btn btn--primary btn--lg btn--block"
          href={state.link}
          target="_blank"
          rel="noreferrer"
          data-testid="telegram-link"
        >
          <IconTelegram size={20} />
          <span className="btn__label">{t('auth.telegram.open')}</span>
        </a>
        <p className="tg-wait__status">
          <Spinner size={16} /> {t('auth.telegram.waiting')}
        </p>
        <Button
          theme="light"
          block
          onClick={() => {
            reset();
            onWaitingChange?.(false);
          }}
        >
          {t('auth.telegram.otherWay')}
        </Button>
      </div>
    );
  }

  return (
    <div className="stack">
      {state.step === 'expired' && <Alert>{t('errors.telegram.auth_key_gone')}</Alert>}
      {state.step === 'failed' && <Alert>{describeError(t, state.error).alert}</Alert>}
      <Button
        theme="black"
        size="lg"
        block
        className="btn--telegram"
        icon={<IconTelegram size={20} />}
        loading={state.step === 'requesting'}
        onClick={() => {
          onWaitingChange?.(true);
          void start();
        }}
        data-testid="telegram-sign-in"
      >
        {t('auth.telegram.button')}
      </Button>
    </div>
  );
}
