import { useUniqueId } from '../../../lib/use-unique-id';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH, SPEECH_MAX_CHARACTERS } from '@mirra/contracts';
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
  spoken = false,
}: {
  value: string;
  onChange(value: string): void;
  placeholder: string;
  required: boolean;
  error?: InputError;
  /** A remark under the field, e.g. that the offline helper wrote the prompt. */
  note?: string | null;
  onHelper(): void;
  /**
   * Words to be spoken (a talking photo): said as typed in their own language, so neither the
   * English rule nor the prompt helper applies, and they fit SPEECH_MAX_CHARACTERS.
   */
  spoken?: boolean;
}) {
  const { t } = useTranslation();
  const id = useUniqueId();
  const max = spoken ? SPEECH_MAX_CHARACTERS : PROMPT_MAX_LENGTH;
  const length = value.trim().length;
  const problem = spoken ? (length > max ? 'tooLong' : null) : promptProblem(value);
  const serverError = formatInputError(error);
  const message =
    serverError ||
    (problem === 'tooLong'
      ? t('messages.maxChars', { max })
      : problem === 'notEnglish'
        ? t('messages.onlyEnglish')
        : '');
  return (
    <div className={`field field--default${message ? ' field--invalid' : ''}`}>
      <div className="prompt-field__head">
        <label className="field__title" htmlFor={id}>
          {spoken ? t('talking.words') : t('generate.prompt')}
          {!required && <span className="prompt-field__optional"> · {t('generate.optional')}</span>}
        </label>
        {!spoken && (
          <button
            type="button"
            className="link prompt-field__helper"
            onClick={onHelper}
            data-testid="helper-open"
          >
            <IconSparkles size={16} />
            {t('helper.open')}
          </button>
        )}
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
            {note ?? (spoken ? t('talking.wordsHint') : t('generate.englishHint'))}
          </p>
        )}
        <span className={`prompt-field__count${length > max ? ' is-over' : ''}`}>
          {length}/{max}
        </span>
      </div>
    </div>
  );
}
