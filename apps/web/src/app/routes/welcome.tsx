import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { IconFace, IconPalette, IconSparkles, IconUsers } from '../../components/ui/icons';
import { useAiOffered } from '../../features/generations';
import { welcomeNext } from '../../lib/return-path';
import './welcome.css';

const SLIDES = [
  { key: 'studio', Icon: IconSparkles },
  { key: 'twin', Icon: IconFace },
  { key: 'styles', Icon: IconPalette },
  { key: 'share', Icon: IconUsers },
] as const;

/**
 * Four-slide onboarding with next and start buttons; a new account sees it once, right after the
 * activation link signed it in, and then goes on where it started (`?next=`).
 */
export function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = welcomeNext(useLocation().search);
  const [index, setIndex] = useState(0);
  const slide = SLIDES[index]!;
  // The studio slide promises AI only where the server says an AI engine serves some mode; until
  // then, and on a server that draws offline, it says what the pictures are made by (as Home does).
  const aiOffered = useAiOffered();
  const [title, text] =
    slide.key === 'studio' && aiOffered !== true
      ? [t('home.titleOffline'), t('home.offlineNote')]
      : [t(`welcome.${slide.key}.title`), t(`welcome.${slide.key}.text`)];
  const isLast = index === SLIDES.length - 1;
  return (
    <div className="welcome" data-testid="welcome-page">
      <div className={`welcome__art welcome__art--${index}`} aria-hidden="true">
        <div className="welcome__ring" />
        <div className="welcome__tile welcome__tile--a" />
        <div className="welcome__tile welcome__tile--b" />
        <div className="welcome__tile welcome__tile--c" />
        <span className="welcome__icon">
          <slide.Icon size={44} />
        </span>
      </div>
      <div className="welcome__body" key={slide.key}>
        <p className="welcome__step">{t('welcome.step', { current: index + 1, total: SLIDES.length })}</p>
        <h1 className="welcome__title">{title}</h1>
        <p className="welcome__text">{text}</p>
      </div>
      <div className="welcome__dots" role="tablist" aria-label={t('welcome.slides')}>
        {SLIDES.map((s, i) => (
          <button
            key={s.key}
            type="button"
            role="tab"
            aria-selected={i === index}
            aria-label={t('welcome.step', { current: i + 1, total: SLIDES.length })}
            className={`welcome__dot${i === index ? ' is-active' : ''}`}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
      <div className="welcome__actions">
        {isLast ? (
          <Button
            theme="primary"
            size="lg"
            block
            onClick={() => void navigate(next)}
            data-testid="welcome-start"
          >
            {t('welcome.start')}
          </Button>
        ) : (
          <Button
            theme="primary"
            size="lg"
            block
            onClick={() => setIndex(index + 1)}
            data-testid="welcome-next"
          >
            {t('welcome.next')}
          </Button>
        )}
        {!isLast && (
          <Link to={next} className="link welcome__skip" data-testid="welcome-skip">
            {t('welcome.skip')}
          </Link>
        )}
      </div>
    </div>
  );
}
