import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GetProjectsFinalReportDocument } from '../../generated/tags/graphql.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import { demoProject } from '../../src/emulator/demoProject.js';
import { startModelServer } from '../../src/model/index.js';

describe('the demo project’s gold labels', () => {
  it('are all valid, and the sample model gets them partly right and partly wrong, document by document', async () => {
    expect(demoProject().documents.map((d) => d.review?.length)).toEqual([6, 9, 7, 12]);
    const emu = await startEmulator();
    const model = await startModelServer({ secretKey: 'demo-gold-secret' }).catch(async (error: unknown) => {
      await emu.close();
      throw error;
    });
    const post = async (query: string, variables: unknown) => {
      const res = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}` }, body: JSON.stringify({ query, variables }) });
      return (await res.json()) as { data: Record<string, unknown>; errors?: unknown };
    };
    try {
      const started = await post('mutation S($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }', {
        input: { projectId: DEMO_PROJECT_ID, labelerEmail: 'labeler@example.com', options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: model.url, secretKey: 'demo-gold-secret' } },
      });
      const job = emu.emulator.store.jobs.get((started.data.autoLabelTokenBasedProject as { id: string }).id)!;
      await expect.poll(() => job.status, { timeout: 10_000 }).toBe('DELIVERED');
      const report = await post(print(GetProjectsFinalReportDocument), { projectIds: [DEMO_PROJECT_ID] });
      expect(report.errors).toBeUndefined();
      const rows = (report.data.getProjectsFinalReport as { documentFinalReports: { document: { originId: string }; teamMember: { user: { email: string } }; finalReport: Record<string, number> }[] }[])[0]!.documentFinalReports;
      // By hand (DEMO_GOLD): doc-1 all agree; doc-2 "The Red Cross" vs "Red Cross"; doc-3 the deleted
      // "Alan Turing" and "Tokyo team" ORGANIZATION vs "Tokyo" LOCATION; doc-4 the CONFLICT "Tokyo"
      // and "Red Cross" LOCATION vs ORGANIZATION.
      expect(rows.map((r) => [r.document.originId, r.teamMember.user.email, r.finalReport.totalAppliedLabels, r.finalReport.totalAcceptedLabels, r.finalReport.precision, r.finalReport.recall])).toEqual([
        ['doc-1', 'labeler@example.com', 6, 6, 1, 1],
        ['doc-2', 'labeler@example.com', 8, 7, 7 / 8, 7 / 8],
        ['doc-3', 'labeler@example.com', 7, 5, 5 / 7, 5 / 6],
        ['doc-4', 'labeler@example.com', 12, 10, 10 / 12, 10 / 11],
      ]);
    } finally {
      await emu.close();
      await model.close();
    }
  });
});
