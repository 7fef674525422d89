/**
 * The pieces every emulator page is made of: escaping, safe colours and the page shell.
 *
 * @remarks Every text a page shows goes through {@link escapeHtml}; document text, label names
 * and job errors are user data. The shell sends a Content-Security-Policy that allows no script
 * and nothing from another origin, so even a missed escape could not run code.
 */

/**
 * Escapes a text for HTML element content and for double- or single-quoted attribute values.
 *
 * @param text - any text (user data included)
 * @returns the text with `& < > " '` replaced by character references
 * @example
 * ```ts
 * escapeHtml('<script>alert(1)</script>'); // '&lt;script&gt;alert(1)&lt;/script&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NAMED_COLOR = /^[a-z]{3,20}$/i;
/** Colours for labels that have none (distinct on white, readable under dark text). */
const PALETTE = ['#8b5cf6', '#ec4899', '#14b8a6', '#f97316', '#84cc16', '#06b6d4', '#a855f7', '#eab308'];

/**
 * A label's colour as a value that is safe inside a `style` attribute.
 *
 * @param color - the label's colour: `#rgb`/`#rrggbb` (production), a colour name (the
 * specification), anything else, or null
 * @param fallbackIndex - picks a palette colour when `color` is missing or not a colour
 * @returns a hex colour or a plain colour name, never anything else
 * @remarks A colour name that CSS does not know simply draws no colour; it cannot break out of
 * the attribute, because only letters pass.
 * @example
 * ```ts
 * safeColor('#EF4444', 0); // '#EF4444'
 * safeColor('red;background:url(x)', 2); // '#14b8a6'
 * ```
 */
export function safeColor(color: string | null | undefined, fallbackIndex: number): string {
  const c = (color ?? '').trim();
  if (HEX_COLOR.test(c) || NAMED_COLOR.test(c)) return c;
  return PALETTE[Math.abs(fallbackIndex) % PALETTE.length]!;
}

/** The policy of the emulator's own pages: no script, nothing from elsewhere, inline styles only. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `
:root{color-scheme:light}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f8fafc;color:#0f172a}
header{background:#0f172a;color:#f8fafc;padding:.7rem 1.5rem;display:flex;gap:1.5rem;align-items:baseline;flex-wrap:wrap}
header a{color:#cbd5e1} header strong{font-size:1.05rem}
main{max-width:1100px;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.4rem;margin:.6rem 0} h2{font-size:1.1rem;margin:1.4rem 0 .5rem} h3{font-size:1rem;margin:1rem 0 .3rem}
table{border-collapse:collapse;width:100%;background:#fff} th,td{border:1px solid #e2e8f0;padding:.35rem .6rem;text-align:left;vertical-align:top}
th{background:#f1f5f9;font-weight:600}
code,.mono{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
.box{background:#fff;border:1px solid #e2e8f0;border-radius:6px;padding:.8rem 1rem;margin:.6rem 0}
.muted{color:#64748b} .small{font-size:.85rem}
.status{display:inline-block;padding:0 .5rem;border-radius:999px;font-weight:600;font-size:.85rem;background:#e2e8f0}
.status-DELIVERED{background:#dcfce7;color:#166534} .status-FAILED{background:#fee2e2;color:#991b1b}
.status-IN_PROGRESS,.status-QUEUED{background:#dbeafe;color:#1e40af}
progress{width:10rem;vertical-align:middle}
.token{font:13px ui-monospace,monospace;background:#f1f5f9;padding:.2rem .4rem;border-radius:4px;word-break:break-all}
.legend ul{list-style:none;margin:0;padding-left:1.2rem} .legend>ul{padding-left:0}
.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;vertical-align:-.1rem;margin-right:.35rem;border:1px solid #0002}
.doc{background:#fff;border:1px solid #e2e8f0;border-radius:6px;margin:.8rem 0}
.doc h3{margin:0;padding:.5rem .8rem;background:#f1f5f9;border-bottom:1px solid #e2e8f0;font-size:.95rem}
.lines{margin:0;padding:.3rem 0;list-style:none;counter-reset:line}
.lines li{display:grid;grid-template-columns:3rem 1fr;padding:.15rem .8rem;line-height:1.9}
.lines li .n{color:#94a3b8;font:12px ui-monospace,monospace;padding-top:.25rem}
mark.span{background:color-mix(in srgb,var(--c) 22%,white);border-bottom:3px solid var(--c);border-radius:3px;padding:0 .1rem;color:inherit}
.tag{font:600 10px ui-monospace,monospace;color:#fff;background:var(--c);border-radius:3px;padding:0 .25rem;margin:0 .2rem 0 .1rem;vertical-align:.15rem}
.err td{background:#fff7f7}
`;

/** Options of {@link htmlPage}. */
interface HtmlPageOptions {
  /** The tab title and heading (plain text; escaped here). */
  title: string;
  /** The page body: HTML that the caller already escaped. */
  body: string;
  /** Reload the page after this many seconds (while a job runs). @defaultValue no reload */
  refreshSeconds?: number;
}

/**
 * Wraps a page body in the emulator's shell: header with links, styles, optional self-refresh.
 *
 * @param options - title (escaped here), body (already escaped by the caller), refresh
 * @returns the whole HTML document
 * @remarks The refresh is a `<meta http-equiv="refresh">`, so the pages need no script at all.
 * @example
 * ```ts
 * const html = htmlPage({ title: 'Jobs', body: `<p>${escapeHtml(text)}</p>`, refreshSeconds: 2 });
 * ```
 */
export function htmlPage(options: HtmlPageOptions): string {
  const title = escapeHtml(options.title);
  const refresh = options.refreshSeconds ? `<meta http-equiv="refresh" content="${Math.max(1, Math.round(options.refreshSeconds))}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} · labelkit emulator</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<style>${STYLE}</style></head>
<body><header><strong>labelkit emulator</strong><a href="/">Home</a><a href="/graphql">GraphiQL</a></header>
<main><h1>${title}</h1>
${options.body}
</main></body></html>`;
}

/**
 * An HTML response with the pages' security headers.
 *
 * @param html - the document
 * @param status - the HTTP status @defaultValue 200
 * @param headers - more headers (e.g. `set-cookie`)
 * @returns the response: `no-store`, the CSP, `nosniff`, no referrer
 * @remarks The CSP is {@link PAGE_CSP}: the pages run no script at all.
 * @example
 * ```ts
 * return htmlResponse(htmlPage({ title: 'Home', body }), 200, { 'set-cookie': cookie });
 * ```
 */
export function htmlResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...headers,
    },
  });
}
