import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useUniqueId } from '../../lib/use-unique-id';
import { useTranslation } from 'react-i18next';
import { IconClose, IconEye, IconEyeOff, IconSearch } from './icons';

export type TextInputTheme = 'default' | 'outline' | 'glass';

/** An error as the server or a form gives it: one message, or a list shown joined with ", ". */
export type InputError = string | readonly string[] | null | undefined;

export function formatInputError(error: InputError): string {
  if (!error) return '';
  if (typeof error === 'string') return error;
  return error.filter(Boolean).join(', ');
}

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  title?: string;
  value: string;
  onValueChange(value: string): void;
  error?: InputError;
  theme?: TextInputTheme;
  /** Search mode: a magnifier, a clear button and the search keyboard. */
  search?: boolean;
  hint?: ReactNode;
};

/**
 * The text input: a title, an error (string or list), three themes, a search mode, and
 * a message when the maximum length is reached.
 */
export function TextInput({
  title,
  value,
  onValueChange,
  error,
  theme = 'default',
  search,
  hint,
  type = 'text',
  maxLength,
  className,
  id,
  ...rest
}: TextInputProps) {
  const { t } = useTranslation();
  const autoId = useUniqueId();
  const inputId = id ?? autoId;
  const [revealed, setRevealed] = useState(false);
  const message = formatInputError(error);
  const atLimit = maxLength !== undefined && value.length >= maxLength;
  const isPassword = type === 'password';
  const classes = [
    'field',
    `field--${theme}`,
    search ? 'field--search' : '',
    message ? 'field--invalid' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {title && (
        <label className="field__title" htmlFor={inputId}>
          {title}
        </label>
      )}
      <div className="field__control">
        {search && <IconSearch className="field__icon" size={20} />}
        <input
          id={inputId}
          className="field__input"
          type={isPassword && revealed ? 'text' : search ? 'search' : type}
          value={value}
          maxLength={maxLength}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${inputId}-error` : undefined}
          onChange={(event) => onValueChange(event.target.value)}
          {...rest}
        />
        {search && value && (
          <button
            type="button"
            className="field__action"
            aria-label={t('common.clear')}
            onClick={() => onValueChange('')}
          >
            <IconClose size={18} />
          </button>
        )}
        {isPassword && (
          <button
            type="button"
            className="field__action"
            aria-label={revealed ? t('common.hidePassword') : t('common.showPassword')}
            onClick={() => setRevealed((v) => !v)}
          >
            {revealed ? <IconEyeOff size={20} /> : <IconEye size={20} />}
          </button>
        )}
      </div>
      {message ? (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {message}
        </p>
      ) : atLimit ? (
        <p className="field__hint field__hint--limit">{t('messages.maxChars', { max: maxLength })}</p>
      ) : hint ? (
        <p className="field__hint">{hint}</p>
      ) : null}
    </div>
  );
}
