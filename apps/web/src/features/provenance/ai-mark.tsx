import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './provenance.css';

/**
 * The visible "made with AI" mark on every picture and video Mirra shows as its own (posts,
 * results): a small label over the picture's corner, its full wording for screen readers and on
 * hover. Disclosure of generated media is the law in the EU (AI Act, Article 50) and fair to viewers.
 */
export function AiMark({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`ai-mark ${className}`.trim()} title={t('aiMark.title')} data-testid="ai-mark">
      <span aria-hidden="true">{t('aiMark.label')}</span>
      <span className="visually-hidden">{t('aiMark.title')}</span>
    </span>
  );
}

/** A picture or video with the mark over its top right corner. */
export function AiMarked({ children }: { children: ReactNode }) {
  return (
    <div className="ai-marked">
      {children}
      <AiMark />
    </div>
  );
}
