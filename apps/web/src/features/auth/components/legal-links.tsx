import { Trans } from 'react-i18next';
import { useGeo } from '../hooks/use-public-config';
import '../auth.css';

/** The offer and privacy documents: Russian ones for visitors from Russia, English for everyone else. */
export function legalDocumentUrls(countryIso: string | null | undefined) {
  const variant = countryIso?.toUpperCase() === 'RU' ? 'ru' : 'en';
  return { offer: `/legal/offer-${variant}.html`, privacy: `/legal/privacy-${variant}.html` };
}

export function LegalLinks() {
  const geo = useGeo();
  const urls = legalDocumentUrls(geo.data?.country_iso);
  return (
    <p className="legal-note" data-testid="legal-links">
      <Trans
        i18nKey="auth.legal"
        components={{
          offer: (
            <a href={urls.offer} target="_blank" rel="noreferrer" className="link" data-testid="offer-link" />
          ),
          privacy: (
            <a
              href={urls.privacy}
              target="_blank"
              rel="noreferrer"
              className="link"
              data-testid="privacy-link"
            />
          ),
        }}
      />
    </p>
  );
}
