import { useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { closeOnTelegramBack } from '../../lib/telegram';
import { IconClose } from './icons';

/** How long the sheet takes to hide before it emits close. */
export const SHEET_CLOSE_MS = 200;

let openSheets = 0;

function stopAtSheet(event: SyntheticEvent) {
  event.stopPropagation();
}

interface SheetProps {
  open: boolean;
  /** Called 200 ms after the sheet starts hiding. */
  onClose(): void;
  from?: 'bottom' | 'top';
  title?: ReactNode;
  children: ReactNode;
  /** On wide screens the sheet becomes a centred dialog. */
  label?: string;
  className?: string;
}

/**
 * A sheet sliding from the bottom or the top: it stays open until closed, then hides
 * and emits close after 200 ms. Escape, a tap on the backdrop and Telegram's back button close it.
 */
export function Sheet({ open, onClose, from = 'bottom', title, children, label, className }: SheetProps) {
  const { t } = useTranslation();
  const [closing, setClosing] = useState(false);
  const [shown, setShown] = useState(open);
  const [wasOpen, setWasOpen] = useState(open);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  // Follow the parent's `open`: opening shows at once, closing plays the hide animation first.
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setShown(true);
      setClosing(false);
    } else if (shown) {
      setClosing(true);
    }
  }

  // The latest props, read when the timer fires: callers pass a new onClose on every render, and
  // a parent re-rendering while the sheet hides (upload progress) must not restart the 200 ms.
  const latest = useRef({ open, onClose });
  useEffect(() => {
    latest.current = { open, onClose };
  });

  useEffect(() => {
    if (!closing) return;
    timer.current = setTimeout(() => {
      setShown(false);
      setClosing(false);
      if (latest.current.open) latest.current.onClose();
    }, SHEET_CLOSE_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [closing]);

  useEffect(() => {
    if (!shown) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // Sheets opened over sheets (a history over a dialog): Escape closes only the top one.
      const open = document.querySelectorAll('.sheet:not(.sheet--closing)');
      if (open[open.length - 1] === root.current) setClosing(true);
    };
    document.addEventListener('keydown', onKey);
    const releaseBack = closeOnTelegramBack(() => setClosing(true));
    openSheets += 1;
    document.body.classList.add('has-sheet');
    panel.current?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      releaseBack();
      openSheets -= 1;
      // Another sheet may still be open underneath.
      if (openSheets === 0) document.body.classList.remove('has-sheet');
    };
  }, [shown]);

  if (!shown) return null;
  return createPortal(
    // React events bubble through the component tree, not the DOM: a sheet opened from inside a
    // page's <form> would otherwise submit (or reset) that form too when a form in the sheet is
    // sent, e.g. the prompt helper creating a paid generation from the form behind it.
    <div
      ref={root}
      className={`sheet sheet--${from}${closing ? ' sheet--closing' : ''}`}
      onSubmit={stopAtSheet}
      onReset={stopAtSheet}
    >
      <div className="sheet__backdrop" onClick={() => setClosing(true)} />
      <div
        ref={panel}
        className={`sheet__panel ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={label ?? (typeof title === 'string' ? title : undefined)}
        tabIndex={-1}
      >
        {from === 'bottom' && <div className="sheet__grabber" aria-hidden="true" />}
        <div className="sheet__head">
          {title && <h2 className="sheet__title">{title}</h2>}
          <button
            type="button"
            className="icon-btn sheet__close"
            aria-label={t('common.close')}
            onClick={() => setClosing(true)}
          >
            <IconClose size={20} />
          </button>
        </div>
        <div className="sheet__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
