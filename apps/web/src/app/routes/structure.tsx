import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { TeamList, TopsList } from '../../features/partners';
import { Page as NotFound } from './not-found';

const VIEWS = ['linear', 'tops'] as const;

/** Partner structure: the team (linear) with the paid filter, and the tops list. */
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
      {view === 'tops' ? <TopsList /> : <TeamList />}
    </PageFrame>
  );
}
