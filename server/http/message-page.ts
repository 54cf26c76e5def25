// A small standalone HTML page for server-side messages (e.g. a login method that is not configured).

/** What a message page says. */
export interface MessagePage {
  siteName: string;
  title: string;
  message: string;
  linkHref: string;
  linkText: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Renders a message page as a complete HTML document. */
export function renderMessagePage(page: MessagePage): string {
  const e = {
    siteName: escapeHtml(page.siteName),
    title: escapeHtml(page.title),
    message: escapeHtml(page.message),
    linkHref: escapeHtml(page.linkHref),
    linkText: escapeHtml(page.linkText),
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e.title} | ${e.siteName}</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0f1115;color:#e7e9ee;font:16px/1.5 system-ui,sans-serif}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.5rem}a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:.5rem;background:#6d5efc;color:#fff;text-decoration:none}</style>
</head><body><main><h1>${e.title}</h1><p>${e.message}</p><a href="${e.linkHref}">${e.linkText}</a></main></body></html>`;
}
