import type { StoredProject } from './store.js';

/** The id of the built-in demo project. */
export const DEMO_PROJECT_ID = 'demo-project';

/** A small English project with a hierarchical entity label set. */
export function demoProject(): StoredProject {
  return {
    id: DEMO_PROJECT_ID,
    name: 'Demo: news snippets',
    labelSets: [
      {
        id: 'demo-entities',
        index: 0,
        name: 'Entities',
        arrowLabelRequired: false,
        tagItems: [
          { id: 'entity', parentId: null, tagName: 'ENTITY', color: '#6b7280', desc: 'Anything named', type: 'SPAN' },
          { id: 'person', parentId: 'entity', tagName: 'PERSON', color: '#ef4444', desc: 'A person', type: 'SPAN' },
          { id: 'org', parentId: 'entity', tagName: 'ORGANIZATION', color: '#3b82f6', desc: 'A company or body', type: 'SPAN' },
          { id: 'location', parentId: 'entity', tagName: 'LOCATION', color: '#10b981', desc: 'A place', type: 'SPAN' },
          { id: 'date', parentId: null, tagName: 'DATE', color: '#f59e0b', desc: 'A day, month or year', type: 'SPAN' },
        ],
      },
    ],
    documents: [
      {
        id: 'doc-1',
        name: 'conference.txt',
        lines: [
          'Ada Lovelace opened the conference in London on Monday.',
          'Engineers from Acme Corp and Globex attended.',
          'The keynote was given by Grace Hopper.',
        ],
      },
      {
        id: 'doc-2',
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
        name: 'startup.txt',
        lines: [
          'Initech opened an office in Berlin in 2024.',
          'Its founder, Alan Turing, is a fictional namesake.',
          'Hiring starts in January.',
          'Ravi leads the Tokyo team.',
        ],
      },
    ],
  };
}
