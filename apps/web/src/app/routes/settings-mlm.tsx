import { PageFrame } from '../../components/ui/page';
import { PartnerProgramme } from '../../features/partners';

/** Partner programme: reflinks, curator, statistics with the monthly chart, levels, calculator, FAQ, promo. */
export function Page() {
  return (
    <PageFrame width="narrow" testId="mlm-page">
      <PartnerProgramme />
    </PageFrame>
  );
}
