import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { IconUsers } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { Page as NotFound } from './not-found';

const VIEWS = ['linear', 'tops'] as const;

/** Partner structure: the team (linear) and the tops list, with the paid filter. */
export function Page() {
  const { t } = useTranslation();
  const { view } = useParams();
  if (!VIEWS.includes(view as (typeof VIEWS)[number])) return <NotFound />;
  return (
    <PageFrame width="narrow" testId="structure-page">
      <div className="tabs">
        {VIEWS.map((name) => (
          <Link
            key={name}
            to={`/structure/${name}/`}
            className={`tabs__tab${name === view ? ' is-active' : ''}`}
            replace
          >
            {t(`structure.${name}`)}
          </Link>
        ))}
      </div>
      <EmptyState
        icon={<IconUsers size={28} />}
        title={t(view === 'tops' ? 'structure.topsEmpty' : 'structure.empty')}
        text={t('structure.emptyText')}
      />
    </PageFrame>
  );
}
