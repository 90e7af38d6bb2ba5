import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconChevron } from '../../../components/ui/icons';
import { MODE_ICONS, modeArt, type GenerationMode } from '../modes';
import '../mode-card.css';

/** A mode's card; `to` where the mode starts elsewhere than its form (photo packs: their catalogue). */
export function ModeCard({ mode, compact, to }: { mode: GenerationMode; compact?: boolean; to?: string }) {
  const { t } = useTranslation();
  const Icon = MODE_ICONS[mode];
  return (
    <Link
      to={to ?? `/generate/${mode}/`}
      className={`mode-card${compact ? ' mode-card--compact' : ''}`}
      data-testid={`mode-${mode}`}
    >
      <span className="mode-card__art" style={{ background: modeArt(mode) }}>
        <Icon size={compact ? 22 : 28} />
      </span>
      <span className="mode-card__body">
        <span className="mode-card__title">{t(`modes.${mode}.title`)}</span>
        <span className="mode-card__text">{t(`modes.${mode}.description`)}</span>
      </span>
      <IconChevron size={18} className="mode-card__chevron" />
    </Link>
  );
}
