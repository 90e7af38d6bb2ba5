import type { TPaymentMethod } from '@mirra/contracts';
import type { ReactNode } from 'react';
import { Trans } from 'react-i18next';
import { legalDocumentUrls } from '../../auth';

/** The offer and privacy boxes every payment needs ticked (links in the region's language). */
export function ConsentBoxes({
  region,
  offer,
  privacy,
  onOffer,
  onPrivacy,
}: {
  region: 'ru' | 'intl';
  offer: boolean;
  privacy: boolean;
  onOffer(value: boolean): void;
  onPrivacy(value: boolean): void;
}) {
  const legal = legalDocumentUrls(region === 'ru' ? 'RU' : null);
  return (
    <>
      <label className="purchase-consent">
        <input
          type="checkbox"
          checked={offer}
          onChange={(e) => onOffer(e.target.checked)}
          data-testid="consent-offer"
        />
        <span>
          <Trans
            i18nKey="payments.agreeOffer"
            components={{ offer: <a href={legal.offer} target="_blank" rel="noreferrer" className="link" /> }}
          />
        </span>
      </label>
      <label className="purchase-consent">
        <input
          type="checkbox"
          checked={privacy}
          onChange={(e) => onPrivacy(e.target.checked)}
          data-testid="consent-privacy"
        />
        <span>
          <Trans
            i18nKey="payments.agreePrivacy"
            components={{
              privacy: <a href={legal.privacy} target="_blank" rel="noreferrer" className="link" />,
            }}
          />
        </span>
      </label>
    </>
  );
}

/** A radio list of the ways to pay, each maybe with a note on its right (what the wallet holds). */
export function MethodChoice({
  methods,
  chosen,
  onChoose,
  label,
  aside,
  testIdPrefix = 'method',
}: {
  methods: readonly TPaymentMethod[];
  chosen: TPaymentMethod | null;
  onChoose(method: TPaymentMethod): void;
  label(method: TPaymentMethod): string;
  aside?(method: TPaymentMethod): ReactNode;
  testIdPrefix?: string;
}) {
  return (
    <>
      {methods.map((m) => (
        <label
          key={m}
          className={`purchase-option${m === chosen ? ' is-active' : ''}`}
          data-testid={`${testIdPrefix}-${m}`}
        >
          <input type="radio" name="method" value={m} checked={m === chosen} onChange={() => onChoose(m)} />
          <span className="purchase-option__name">{label(m)}</span>
          {aside?.(m)}
        </label>
      ))}
    </>
  );
}
