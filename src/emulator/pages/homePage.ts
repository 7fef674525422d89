import type { EmulatorStore } from '../store.js';
import { escapeHtml, htmlPage } from './html.js';
import { FINAL_STATUSES, jobStatusHtml } from './jobPanel.js';
import { resultsPath } from './resultsPage.js';

/** How many jobs the home page lists. */
const HOME_JOBS = 20;

/** How many projects the home page lists (a data folder or `--demo-projects` may hold thousands). */
const HOME_PROJECTS = 200;

/** What the home page shows. */
interface HomePageInput {
  store: EmulatorStore;
  /** The origin the browser used, e.g. `http://127.0.0.1:4000`. */
  origin: string;
  /** The emulator's dev token, or undefined to leave it out (a request from a non-local host). */
  token?: string;
}

/**
 * Renders the home page at `/`: what this is, the GraphQL URL, the dev token to paste, links to
 * GraphiQL and each project's results, and the latest jobs with status and progress.
 *
 * @param input - the store, the origin the browser used, the token (when it may be shown)
 * @returns the HTML document (it reloads itself while a job runs)
 * @remarks The token shown is the emulator's own throwaway dev token, never a secret of the
 * user's: model secret keys and client secrets appear nowhere. Every text is escaped.
 * @example
 * ```ts
 * const html = homePage({ store, origin: 'http://127.0.0.1:4000', token: emulator.token });
 * ```
 */
export function homePage(input: HomePageInput): string {
  const { store, origin } = input;
  const graphqlUrl = `${origin}/graphql`;
  const parts: string[] = [];
  parts.push(`<p>A local stand-in for the labeling service: the same GraphQL schema, client-credentials auth, and a job runner that calls your model. Nothing here leaves this machine.</p>`);
  const token = input.token
    ? `<p>Dev token (a throwaway token of this emulator process, not a secret of yours):<br><span class="token" id="token">${escapeHtml(input.token)}</span></p>
<pre class="box mono">export LABELKIT_URL=${escapeHtml(graphqlUrl)}
export LABELKIT_TOKEN=${escapeHtml(input.token)}</pre>`
    : `<p class="muted">Open this page as <code>localhost</code> or <code>127.0.0.1</code> to see the dev token.</p>`;
  parts.push(`<div class="box"><p>GraphQL endpoint: <code id="graphql-url">${escapeHtml(graphqlUrl)}</code> (POST, <code>Authorization: Bearer &lt;token&gt;</code>) · <a href="/graphql">open GraphiQL</a></p>${token}</div>`);

  const projects = [...store.projects.values()];
  const projectRows = projects
    .slice(0, HOME_PROJECTS)
    .map(
      (p) =>
        `<tr><td><a href="${escapeHtml(resultsPath(p.id))}">${escapeHtml(p.name)}</a></td><td class="mono">${escapeHtml(p.id)}</td><td>${p.documents.length}</td><td>${p.lineCount}</td><td>${p.labelSets.length}</td></tr>`,
    )
    .join('\n');
  parts.push(`<h2>Projects</h2>${
    projectRows
      ? `<table id="projects"><thead><tr><th>results</th><th>id</th><th>documents</th><th>lines</th><th>label sets</th></tr></thead><tbody>${projectRows}</tbody></table>${
          projects.length > HOME_PROJECTS
            ? `<p class="muted small">… and ${projects.length - HOME_PROJECTS} more projects; open <code>/emulator/projects/&lt;id&gt;/results</code> for any of them.</p>`
            : ''
        }`
      : '<p class="muted">No project: start the emulator with the demo project or a data folder.</p>'
  }`);

  const jobs = [...store.jobs.values()].reverse().slice(0, HOME_JOBS);
  const jobRows = jobs
    .map((job) => {
      const source = store.jobSource(job.id);
      const link = source ? `<a href="${escapeHtml(resultsPath(source.projectId, job.id))}">${escapeHtml(job.id)}</a>` : escapeHtml(job.id);
      return `<tr data-job="${escapeHtml(job.id)}"><td>${link}</td><td class="mono">${escapeHtml(source?.projectId ?? '')}</td><td>${jobStatusHtml(job)}</td><td>${job.errors.length}</td><td class="small">${escapeHtml(job.updatedAt)}</td></tr>`;
    })
    .join('\n');
  parts.push(`<h2>Latest jobs</h2>${
    jobRows
      ? `<table id="jobs"><thead><tr><th>job</th><th>project</th><th>status</th><th>errors</th><th>updated</th></tr></thead><tbody>${jobRows}</tbody></table>`
      : '<p class="muted">No job yet. Start one with the client, <code>labelkit auto-label</code> or GraphiQL.</p>'
  }`);
  const running = jobs.some((j) => !FINAL_STATUSES.has(j.status));
  return htmlPage({ title: 'Home', body: parts.join('\n'), ...(running && { refreshSeconds: 1 }) });
}
