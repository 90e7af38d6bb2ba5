import { useRef, useState, type FormEvent } from 'react';
import { useUniqueId } from '../../../lib/use-unique-id';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconSparkles } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import type { TGenerationMode, TPromptHelperResult } from '../../../lib/api-types';
import { describeError } from '../../../lib/error-messages';
import { generationsApi } from '../api/generations.api';
import '../generations.css';

/**
 * The prompt helper: wishes written in any of the six languages become an English prompt, which
 * replaces the description. The form notes when the offline phrasebook (not a language model)
 * wrote it.
 */
export function PromptHelperSheet({
  open,
  mode,
  initialText,
  onClose,
  onPrompt,
}: {
  open: boolean;
  mode: TGenerationMode;
  initialText: string;
  onClose(): void;
  onPrompt(result: TPromptHelperResult): void;
}) {
  const { t } = useTranslation();
  const id = useUniqueId();
  const [text, setText] = useState(initialText);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  // Each opening starts from what the description holds now.
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setText(initialText);
      setError(null);
    }
  }

  // Which request may still answer: closing the sheet drops a late reply, which would otherwise
  // overwrite what was typed into the description since.
  const current = useRef(0);
  const close = () => {
    current.current += 1;
    setBusy(false);
    onClose();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim() || busy) return;
    const request = ++current.current;
    setBusy(true);
    setError(null);
    try {
      const result = await generationsApi.writePrompt(text.trim(), mode);
      if (request === current.current) onPrompt(result);
    } catch (failure) {
      if (request === current.current) setError(describeError(t, failure, []).alert ?? t('errors.network'));
    } finally {
      if (request === current.current) setBusy(false);
    }
  }

  return (
    <Sheet open={open} onClose={close} title={t('helper.title')}>
      <form className="form" onSubmit={submit} data-testid="helper-sheet">
        <p className="form__text">{t('helper.text')}</p>
        <label className="field field--default" htmlFor={id}>
          <span className="field__title">{t('helper.wishes')}</span>
          <textarea
            id={id}
            className="field__input field__textarea"
            value={text}
            maxLength={PROMPT_MAX_LENGTH}
            placeholder={t('helper.placeholder')}
            onChange={(event) => setText(event.target.value)}
            rows={4}
            data-testid="helper-text"
          />
        </label>
        {error && <Alert>{error}</Alert>}
        <Button
          type="submit"
          theme="primary"
          block
          loading={busy}
          disabled={!text.trim()}
          icon={<IconSparkles size={18} />}
          data-testid="helper-submit"
        >
          {busy ? t('helper.working') : t('helper.submit')}
        </Button>
      </form>
    </Sheet>
  );
}
