import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Helpers the payment providers' fakes share: bodies, answers and their checkout pages. */

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location });
  response.end();
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A provider's hosted payment page as a browser sees it: what is paid, and buttons that post
 * back to the page (pay, decline the card, cancel…). Plain HTML forms, no script.
 */
export function renderCheckoutPage(page: {
  provider: string;
  title: string;
  amount: string;
  description: string;
  status: string;
  error?: string | undefined;
  actions: Array<{ action: string; label: string }>;
  backUrl?: string | undefined;
}): string {
  const buttons = page.actions
    .map(
      (a) =>
        `<button name="action" value="${escapeHtml(a.action)}" data-action="${escapeHtml(a.action)}">${escapeHtml(a.label)}</button>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#eef0f4;color:#111}main{max-width:420px;margin:0 auto;padding:16px}
.brand{font-weight:800;font-size:20px}.card{background:#fff;border-radius:12px;padding:16px;margin-top:12px}
.fake{background:#ffe08a;border-radius:8px;padding:8px;font-size:13px;margin-top:8px}
.error{color:#a12a2a;font-weight:600}form{display:flex;flex-direction:column;gap:8px;margin-top:12px}
button{border:0;border-radius:10px;padding:14px;font-size:16px;background:#1a56db;color:#fff;cursor:pointer}
button[data-action^=decline],button[data-action^=wrong]{background:#a12a2a}button[data-action=cancel]{background:#555}a{display:block;margin-top:12px;text-align:center}</style>
</head><body><main><div class="brand" data-testid="provider-brand">${escapeHtml(page.provider)}</div>
<div class="fake">A local fake of ${escapeHtml(page.provider)}: no money moves.</div>
<div class="card"><p>${escapeHtml(page.description)}</p>
<p><strong data-testid="provider-amount">${escapeHtml(page.amount)}</strong></p>
<p>Status: <span data-testid="provider-status">${escapeHtml(page.status)}</span></p>
${page.error ? `<p class="error" data-testid="provider-error">${escapeHtml(page.error)}</p>` : ''}
${buttons ? `<form method="post">${buttons}</form>` : ''}
${page.backUrl ? `<a href="${escapeHtml(page.backUrl)}" data-testid="provider-back">Return to the shop</a>` : ''}
</div></main></body></html>`;
}

export function sendHtml(response: ServerResponse, html: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(html);
}

/** POSTs a notification to the shop, retrying a few times on failure as providers do. */
export async function deliverNotification(
  url: string,
  body: string,
  headers: Record<string, string>,
  attempts = 3,
): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 200 * attempt));
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.text();
      status = response.status;
      if (response.ok) return status;
    } catch {
      status = 0;
    }
  }
  return status;
}

/**
 * Stops a fake: its open connections (keep-alive sockets of the app's client, a browser's checkout
 * page) are cut, so closing never waits on a peer that keeps its socket.
 */
export function closeFakeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
