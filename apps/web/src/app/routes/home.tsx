import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconCrown, IconGallery, IconRepeat, IconSparkles, IconVideo } from '../../components/ui/icons';
import { PageFrame, Section } from '../../components/ui/page';
import { TextInput } from '../../components/ui/text-input';
import {
  ModeCard,
  CREATE_MODES,
  IDEAS,
  ideaHref,
  useAiOffered,
  useModeOffered,
} from '../../features/generations';
import { loadExtraCatalogue } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import './home.css';

// Only signed-in people have generations: guests never download the list's code (or its texts).
const GenerationsGrid = lazy(() =>
  Promise.all([
    import('../../features/generations/generations-grid.lazy'),
    loadExtraCatalogue('generations'),
  ]).then(([module]) => module),
);

// The prompt to get premium is for people without it; whether a signed-in person has it is asked
// by code loaded only for them (until it answers, the prompt shows, as for guests).
const PremiumGate = lazy(() => import('../../features/payments/premium-gate.lazy'));

export function Page() {
  const { t } = useTranslation();
  const offered = useModeOffered();
  // AI is promised only where the server says an AI engine serves some mode.
  const aiOffered = useAiOffered();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const [query, setQuery] = useState('');

  function search(event: FormEvent) {
    event.preventDefault();
    const q = query.trim();
    void navigate(q ? `/posts/top/?q=${encodeURIComponent(q)}` : '/posts/top/');
  }

  const premiumCard = (
    <Link to="/settings/subscription/" className="premium-card" data-testid="home-premium-prompt">
      <span className="premium-card__icon">
        <IconCrown size={26} />
      </span>
      <span className="premium-card__body">
        <span className="premium-card__title">{t('home.premiumTitle')}</span>
        <span className="premium-card__text">{t('home.premiumText')}</span>
      </span>
      <span className="premium-card__cta">{t('home.premiumAction')}</span>
    </Link>
  );

  return (
    <PageFrame testId="home-page">
      <section className="hero">
        <div className="hero__glow" aria-hidden="true" />
        <p className="hero__eyebrow">
          {user?.firstName
            ? t('home.greeting', { name: user.firstName })
            : t(aiOffered ? 'home.eyebrow' : 'home.eyebrowOffline')}
        </p>
        <h1 className="hero__title" data-testid="home-title">
          {t(aiOffered ? 'home.title' : 'home.titleOffline')}
        </h1>
        <p className="hero__text">{t('home.text')}</p>
        {aiOffered === false && (
          <p className="hero__text" data-testid="home-offline-note">
            {t('home.offlineNote')}
          </p>
        )}
        <div className="hero__actions">
          <ButtonLink to="/create/" theme="primary" size="lg" icon={<IconSparkles size={20} />}>
            {t('home.create')}
          </ButtonLink>
          <ButtonLink to="/posts/top/" theme="light" size="lg" icon={<IconRepeat size={20} />}>
            {t('home.repeat')}
          </ButtonLink>
          {offered('video') && (
            <ButtonLink
              to="/generate/video/"
              theme="light"
              size="lg"
              icon={<IconVideo size={20} />}
              data-testid="home-make-video"
            >
              {t('home.video')}
            </ButtonLink>
          )}
        </div>
      </section>

      <form className="home-search" onSubmit={search} role="search">
        <TextInput
          search
          theme="glass"
          value={query}
          onValueChange={setQuery}
          placeholder={t('home.searchPlaceholder')}
          aria-label={t('home.searchPlaceholder')}
          maxLength={100}
        />
      </form>

      <Section
        title={t('home.modesTitle')}
        action={
          <Link to="/create/" className="link">
            {t('common.all')}
          </Link>
        }
      >
        <div className="mode-grid">
          {CREATE_MODES.filter(offered).map((mode) => (
            <ModeCard key={mode} mode={mode} />
          ))}
        </div>
      </Section>

      <Section title={t('home.ideasTitle')}>
        <div className="idea-grid">
          {IDEAS.filter((idea) => offered(idea.mode)).map((idea) => (
            <Link
              key={idea.key}
              to={ideaHref(idea)}
              className={`idea-card idea-card--${IDEAS.indexOf(idea) % 6}`}
              data-testid={`idea-${idea.key}`}
            >
              <span className="idea-card__text">{t(`ideas.${idea.key}`)}</span>
            </Link>
          ))}
        </div>
      </Section>

      {/* Signed in, the list comes last: it grows as it scrolls. */}
      {isLoggedIn && (
        <Suspense fallback={premiumCard}>
          <PremiumGate>{premiumCard}</PremiumGate>
        </Suspense>
      )}

      <Section title={t('home.generationsTitle')}>
        {isLoggedIn ? (
          <Suspense fallback={<div className="gen-grid gen-grid--loading" aria-busy="true" />}>
            <GenerationsGrid />
          </Suspense>
        ) : (
          <EmptyState
            icon={<IconGallery size={28} />}
            title={t('home.emptyTitle')}
            text={t('home.emptyText')}
            action={
              <ButtonLink to="/create/" theme="primary-outline">
                {t('home.emptyAction')}
              </ButtonLink>
            }
          />
        )}
      </Section>

      {!isLoggedIn && premiumCard}
    </PageFrame>
  );
}
