/**
 * The page served at `GET /graphql` to people: a small, self-contained query explorer.
 *
 * @param title - shown in the tab and heading
 * @returns the HTML text
 * @remarks The emulator runs where no outside network may exist, so the page loads nothing from
 * elsewhere (yoga's bundled GraphiQL fetches its code from a CDN, which is why it is off). The page
 * POSTs the query with the Bearer token typed into it; the token stays in the browser tab. It
 * starts with the demo project's GetCabinet query.
 */
export function explorerPage(title: string): string {
  const safe = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${safe}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px system-ui,sans-serif;margin:0;padding:1rem;background:#f8fafc;color:#0f172a}
h1{font-size:1.1rem;margin:0 0 .5rem}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
textarea,input{width:100%;box-sizing:border-box;font:13px ui-monospace,monospace;padding:.5rem;border:1px solid #cbd5e1;border-radius:4px}
textarea{height:14rem}
pre{background:#0f172a;color:#e2e8f0;padding:.75rem;border-radius:4px;min-height:20rem;overflow:auto;margin:0}
button{margin:.5rem 0;padding:.4rem 1rem;font-weight:600}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
small{color:#475569}
</style></head>
<body>
<h1>${safe}</h1>
<small>Local emulator of the labeling service. POST /graphql with Authorization: Bearer &lt;token&gt;. Tokens: the one printed at start, or POST /api/oauth/token.</small>
<div class="grid"><div>
<label for="token">Bearer token</label><input id="token" type="password" autocomplete="off">
<label for="query">Query</label>
<textarea id="query">query GetCabinet($projectId: ID!, $role: Role!) {
  getCabinet(projectId: $projectId, role: $role) { id }
}</textarea>
<label for="variables">Variables (JSON)</label>
<textarea id="variables" style="height:6rem">{ "projectId": "demo-project", "role": "LABELER" }</textarea>
<button id="run" type="button">Run</button>
</div><div><label>Response</label><pre id="out"></pre></div></div>
<script>
document.getElementById('run').addEventListener('click', async function () {
  var out = document.getElementById('out');
  var variables;
  try { variables = JSON.parse(document.getElementById('variables').value || '{}'); }
  catch (e) { out.textContent = 'Variables are not JSON: ' + e.message; return; }
  out.textContent = '…';
  try {
    var res = await fetch(location.pathname, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + document.getElementById('token').value },
      body: JSON.stringify({ query: document.getElementById('query').value, variables: variables }) });
    out.textContent = 'HTTP ' + res.status + '\\n' + JSON.stringify(await res.json(), null, 2);
  } catch (e) { out.textContent = String(e); }
});
</script></body></html>`;
}
