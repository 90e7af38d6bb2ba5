import { useUniqueId } from '../../../lib/use-unique-id';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH } from '@mirra/contracts';
import { IconSparkles } from '../../../components/ui/icons';
import { formatInputError, type InputError } from '../../../components/ui/text-input';
import { promptProblem } from '../prompt-rules';
import '../generations.css';

/**
 * The English description. While typing it says 'Maximum number of characters - 1000' past the
 * limit and 'Only in English' for other scripts (with the prompt helper one tap away); the
 * server's own field errors are shown the same way.
 */
export function PromptField({
  value,
  onChange,
  placeholder,
  required,
  error,
  note,
  onHelper,
}: {
  value: string;
  onChange(value: string): void;
  placeholder: string;
  required: boolean;
  error?: InputError;
  /** A remark under the field, e.g. that the offline helper wrote the prompt. */
  note?: string | null;
  onHelper(): void;
}) {
  const { t } = useTranslation();
  const id = useUniqueId();
  const problem = promptProblem(value);
  const serverError = formatInputError(error);
  const message =
    serverError ||
    (problem === 'tooLong'
      ? t('messages.maxChars', { max: PROMPT_MAX_LENGTH })
      : problem === 'notEnglish'
        ? t('messages.onlyEnglish')
        : '');
  const length = value.trim().length;
  return (
    <div className={`field field--default${message ? ' field--invalid' : ''}`}>
      <div className="prompt-field__head">
        <label className="field__title" htmlFor={id}>
          {t('generate.prompt')}
          {!required && <span className="prompt-field__optional"> · {t('generate.optional')}</span>}
        </label>
        <button
          type="button"
          className="link prompt-field__helper"
          onClick={onHelper}
          data-testid="helper-open"
        >
          <IconSparkles size={16} />
          {t('helper.open')}
        </button>
      </div>
      <textarea
        id={id}
        className="field__input field__textarea"
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        rows={4}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : `${id}-hint`}
        data-testid="prompt"
      />
      <div className="prompt-field__foot">
        {message ? (
          <p className="field__error" id={`${id}-error`} role="alert" data-testid="prompt-error">
            {message}
            {problem === 'notEnglish' && !serverError && (
              <>
                {' '}
                <button type="button" className="link link--strong" onClick={onHelper}>
                  {t('helper.translate')}
                </button>
              </>
            )}
          </p>
        ) : (
          <p className="field__hint" id={`${id}-hint`}>
            {note ?? t('generate.englishHint')}
          </p>
        )}
        <span className={`prompt-field__count${length > PROMPT_MAX_LENGTH ? ' is-over' : ''}`}>
          {length}/{PROMPT_MAX_LENGTH}
        </span>
      </div>
    </div>
  );
}
