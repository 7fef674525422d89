import type { ReviewLabelInput } from './types.js';
import type { DocumentInput, ProjectInput } from './types.js';

/** The id of the built-in demo project. */
export const DEMO_PROJECT_ID = 'demo-project';

/**
 * The built-in demo project: four short English documents (3, 5, 4 and 7 lines) and one
 * hierarchical entity label set, ENTITY › PERSON / ORGANIZATION / LOCATION, plus DATE.
 *
 * @returns a fresh copy of the project, as given to `store.addProject`
 * @remarks The emulator adds it unless `demoProject: false`. Its words fit the model kit's sample
 * gazetteer (`createSampleModel()`), so the whole flow produces labels out of the box. Two
 * documents have an odd number of lines, so batching by 2 leaves a short last batch. Its reviewer
 * copy holds gold labels ({@link DEMO_GOLD}) that the sample model gets partly right and partly
 * wrong, so that scoring the demo's job shows a real table.
 * @example
 * ```ts
 * const lineCounts = demoProject().documents.map((d) => d.lines.length); // [3, 5, 4, 7]
 * ```
 */
export function demoProject(): ProjectInput {
  return {
    id: DEMO_PROJECT_ID,
    name: 'Demo: news snippets',
    labelSets: [
      {
        id: '1',
        name: 'Entities',
        labels: [
          { id: '10', parentId: null, name: 'ENTITY', color: '#6b7280', desc: 'Anything named' },
          { id: '11', parentId: '10', name: 'PERSON', color: '#ef4444', desc: 'A person' },
          { id: '12', parentId: '10', name: 'ORGANIZATION', color: '#3b82f6', desc: 'A company or body' },
          { id: '13', parentId: '10', name: 'LOCATION', color: '#10b981', desc: 'A place' },
          { id: '14', parentId: null, name: 'DATE', color: '#f59e0b', desc: 'A day, month or year' },
        ],
      },
    ],
    documents: withGold([
      {
        id: 'doc-1',
        completed: true,
        name: 'conference.txt',
        lines: [
          'Ada Lovelace opened the conference in London on Monday.',
          'Engineers from Acme Corp and Globex attended.',
          'The keynote was given by Grace Hopper.',
        ],
      },
      {
        id: 'doc-2',
        completed: true,
        name: 'aid.txt',
        lines: [
          'The Red Cross sent supplies to Nairobi in March.',
          'Volunteers arrived on Friday.',
          'Maria coordinated the team from Lisbon.',
          'The United Nations praised the effort.',
          'A report follows in December.',
        ],
      },
      {
        id: 'doc-3',
        completed: true,
        name: 'startup.txt',
        lines: [
          'Initech opened an office in Berlin in 2024.',
          'Its founder, Alan Turing, is a fictional namesake.',
          'Hiring starts in January.',
          'Ravi leads the Tokyo team.',
        ],
      },
      {
        id: 'doc-4',
        name: 'travel.txt',
        lines: [
          'John Smith flew from Paris to Tokyo on Tuesday.',
          'He met engineers from Globex there.',
          'The weather was mild.',
          'On Friday he visited the Red Cross office.',
          'Maria joined him in Lisbon in March.',
          'Nothing else happened.',
          'He returned to London in December.',
        ],
      },
    ]),
  };
}

/** One gold label: the `occurrence`-th appearance of `text` in the line (0 = the first). */
type Gold = [line: number, text: string, label: string, extra?: Partial<ReviewLabelInput> & { occurrence?: number }];

/**
 * The demo project's gold labels (its reviewer copy), per document, as `[line, text, label]`.
 *
 * @remarks Chosen against the sample model's predictions (`createSampleModel()` with its demo
 * terms), so that each way of being wrong shows up once at least:
 * - a wrong boundary: `The Red Cross` (doc-2, line 0), where the model marks `Red Cross`;
 * - a wrong label: `Red Cross` as LOCATION (doc-4, line 3: the office visited), the model says ORGANIZATION;
 * - a wrong boundary and label: `Tokyo team` as ORGANIZATION (doc-3, line 3), the model says LOCATION for `Tokyo`;
 * - a spurious span: `Alan Turing` (doc-3, line 1) is a gold label the reviewer deleted;
 * - not gold either: `Volunteers` (doc-2, line 1), a PERSON the reviewer rejected;
 * - not gold: `Tokyo` (doc-4, line 0) is marked CONFLICT (unresolved);
 * - doc-1's labels are `AUTO` (accepted by the labelers' consensus), the others `REVIEWER`.
 * Everything else agrees with the model.
 */
export const DEMO_GOLD: Record<string, Gold[]> = {
  'doc-1': [
    [0, 'Ada Lovelace', 'PERSON', { labeledBy: 'AUTO' }],
    [0, 'London', 'LOCATION', { labeledBy: 'AUTO' }],
    [0, 'Monday', 'DATE', { labeledBy: 'AUTO' }],
    [1, 'Acme Corp', 'ORGANIZATION', { labeledBy: 'AUTO' }],
    [1, 'Globex', 'ORGANIZATION', { labeledBy: 'AUTO' }],
    [2, 'Grace Hopper', 'PERSON', { labeledBy: 'AUTO' }],
  ],
  'doc-2': [
    [0, 'The Red Cross', 'ORGANIZATION'],
    [0, 'Nairobi', 'LOCATION'],
    [0, 'March', 'DATE'],
    [1, 'Volunteers', 'PERSON', { rejected: true }],
    [1, 'Friday', 'DATE'],
    [2, 'Maria', 'PERSON'],
    [2, 'Lisbon', 'LOCATION'],
    [3, 'United Nations', 'ORGANIZATION'],
    [4, 'December', 'DATE'],
  ],
  'doc-3': [
    [0, 'Initech', 'ORGANIZATION'],
    [0, 'Berlin', 'LOCATION'],
    [0, '2024', 'DATE'],
    [1, 'Alan Turing', 'PERSON', { deleted: true }],
    [2, 'January', 'DATE'],
    [3, 'Ravi', 'PERSON'],
    [3, 'Tokyo team', 'ORGANIZATION'],
  ],
  'doc-4': [
    [0, 'John Smith', 'PERSON'],
    [0, 'Paris', 'LOCATION'],
    [0, 'Tokyo', 'LOCATION', { labeledBy: 'CONFLICT' }],
    [0, 'Tuesday', 'DATE'],
    [1, 'Globex', 'ORGANIZATION'],
    [3, 'Friday', 'DATE'],
    [3, 'Red Cross', 'LOCATION'],
    [4, 'Maria', 'PERSON'],
    [4, 'Lisbon', 'LOCATION'],
    [4, 'March', 'DATE'],
    [6, 'London', 'LOCATION'],
    [6, 'December', 'DATE'],
  ],
};

/** The documents with their gold labels from {@link DEMO_GOLD}, offsets found from the texts. */
function withGold(documents: DocumentInput[]): DocumentInput[] {
  return documents.map((doc) => {
    const gold = DEMO_GOLD[doc.id];
    if (!gold) return doc;
    const review = gold.map(([line, text, label, { occurrence = 0, ...extra } = {}]): ReviewLabelInput => {
      let start = -1;
      for (let n = 0; n <= occurrence; n++) start = doc.lines[line]!.indexOf(text, start + 1);
      return { line, start_char: start, end_char: start + text.length, label, text, ...extra };
    });
    return { ...doc, review };
  });
}

/** The most projects `demoProjects` makes. */
export const MAX_DEMO_PROJECTS = 100_000;

/**
 * The id of the i-th of the numbered demo projects (1-based).
 *
 * @param i - 1 … N
 * @returns `demo-project-<i>`
 * @remarks The ids of `demoProjects`, for building a projects list.
 * @example
 * ```ts
 * demoProjectId(7); // 'demo-project-7'
 * ```
 */
export function demoProjectId(i: number): string {
  return `${DEMO_PROJECT_ID}-${i}`;
}

/**
 * N small copies of the demo project, `demo-project-1` … `demo-project-N`, for trying a run over
 * many projects (`labelkit emulator --demo-projects 1000`, `EmulatorOptions.demoProjects`).
 *
 * @param count - how many, 0 … {@link MAX_DEMO_PROJECTS}
 * @returns the projects; each has the demo label set and one of the demo's documents (3 to 7 lines)
 * @throws RangeError when `count` is not an integer in range
 * @example
 * ```ts
 * demoProjects(3).map((p) => p.id); // ['demo-project-1', 'demo-project-2', 'demo-project-3']
 * ```
 */
export function demoProjects(count: number): ProjectInput[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_DEMO_PROJECTS) {
    throw new RangeError(`demoProjects must be an integer from 0 to ${MAX_DEMO_PROJECTS}`);
  }
  const demo = demoProject();
  return Array.from({ length: count }, (_, k) => ({
    id: demoProjectId(k + 1),
    name: `Demo ${k + 1}`,
    labelSets: demo.labelSets.map(({ id: _sharedId, ...set }) => set), // each project gets its own set ids
    // Without gold: a reviewer copy per project would cost memory in runs over many projects.
    documents: [withoutGold(demo.documents[k % demo.documents.length]!)],
  }));
}

const withoutGold = ({ review: _gold, ...doc }: DocumentInput): DocumentInput => doc;
