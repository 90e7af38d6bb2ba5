import { translate, type MessageKey } from '../../shared/i18n/messages.js';
import { formatMoney } from './money.js';
import type { PaymentOrderRow } from './payments.repository.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The test provider's checkout page: the order, a banner saying that no money moves, and Pay /
 * Decline / Cancel (Refund once paid) as plain form posts. No script: it works under the app's CSP.
 */
export function renderTestCheckout(order: PaymentOrderRow, language: string, returnUrl: string): string {
  const t = (key: MessageKey) => escapeHtml(translate(language, key));
  const button = (action: string, key: MessageKey, colour: string) =>
    `<button name="action" value="${action}" data-action="${action}" style="background:${colour}">${t(key)}</button>`;
  const actions =
    order.status === 'pending'
      ? button('pay', 'checkout.pay', '#1f7a3d') +
        (order.saveMethod ? button('pay_decline_later', 'checkout.payDeclineLater', '#6a4a9a') : '') +
        button('decline', 'checkout.decline', '#a12a2a') +
        button('cancel', 'checkout.cancel', '#555')
      : order.status === 'paid'
        ? button('refund', 'checkout.refund', '#8a5a00')
        : '';
  return `<!doctype html>
<html lang="${escapeHtml(language)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t('checkout.title')}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f6;color:#111}
main{max-width:420px;margin:0 auto;padding:16px}
.banner{background:#ffe08a;border:2px dashed #b8860b;border-radius:12px;padding:12px;font-weight:700;text-align:center}
.card{background:#fff;border-radius:12px;padding:16px;margin-top:12px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:0}dt{color:#666}dd{margin:0;word-break:break-all}
form{display:flex;flex-direction:column;gap:8px;margin-top:12px}
button{color:#fff;border:0;border-radius:10px;padding:14px;font-size:16px;cursor:pointer}
a{display:block;text-align:center;margin-top:12px;color:#333}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}.card{background:#222}dt{color:#aaa}a{color:#ddd}.banner{color:#111}}
</style></head>
<body><main>
<div class="banner" data-testid="test-payment-banner">${t('checkout.banner')}</div>
<div class="card">
<p>${t('checkout.note')}</p>
<dl>
<dt>${t('checkout.order')}</dt><dd>${escapeHtml(order.product)}</dd>
<dt>${t('checkout.amount')}</dt><dd data-testid="checkout-amount">${escapeHtml(formatMoney(order.amount, order.currency, language))}</dd>
${order.saveMethod ? `<dt>${t('checkout.saveMethod')}</dt><dd data-testid="checkout-save-method">${t('checkout.saveMethodNote')}</dd>` : ''}
<dt>${t('checkout.status')}</dt><dd data-testid="checkout-status">${t(`checkout.status.${order.status}` as MessageKey)}</dd>
</dl>
${actions ? `<form method="post">${actions}</form>` : ''}
<a href="${escapeHtml(returnUrl)}">${t('checkout.back')}</a>
</div>
</main></body></html>`;
}
