/** The sign-in page and the message page of the browser flow: plain HTML, no scripts, everything escaped. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** No framing (clickjacking), no scripts, no referrer: the URL carries the OAuth state. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
} as const;

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;display:flex;justify-content:center;margin:0}
main{background:#fff;margin-top:10vh;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:22rem}
h1{font-size:1.3rem;margin:0 0 1.2rem}label{display:block;margin:.8rem 0 .3rem;font-size:.9rem}
input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #bbb;border-radius:4px;font-size:1rem}
button{margin-top:1.3rem;width:100%;padding:.65rem;border:0;border-radius:4px;background:#2454c5;color:#fff;font-size:1rem}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px;font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function loginPage(input: { realm: string; action: string; loginState: string; username?: string; error?: string }): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    `Sign in to ${input.realm}`,
    `<h1>Sign in to ${escapeHtml(input.realm)}</h1>${error}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="login_state" value="${escapeHtml(input.loginState)}">
<label for="username">Username or email</label>
<input id="username" name="username" autocomplete="username" autofocus required value="${escapeHtml(input.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
