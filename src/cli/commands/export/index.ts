import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { ExportFlags } from './runner.js';
import type { ReleaseFlags } from './releaseRunner.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Declares `labelkit export --project P --format conll|jsonl|spacy --out FILE [--labeler EMAIL] [--layer N] [--strict] [--json]`.
 *
 * @param io - the process
 * @param done - receives the exit code (0; 2 bad flags, no such copy or label set, an output that cannot be written or is locked by another export, a refused resume, a label --strict refuses; 4 a full disk; 130 Ctrl-C)
 * @returns the command
 */
export function exportCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('export')
    .description("write a project's labels (the reviewer copy, or a labeler's) as training data: CoNLL, JSON lines or spaCy; streamed, atomic, resumable")
    .option('--project <id>', 'project id; repeat it for several projects (one file)', collect)
    .option('--projects <file>', 'many projects: a file with one project id per line (# starts a comment)')
    .option('--format <format>', 'conll (token and IOB2 tag per line), jsonl (tokens, ner_tags; the tag list in FILE.labels.json) or spacy (text, entities)')
    .option('--out <file>', 'the file to write (written beside it as FILE.partial, renamed at the end)')
    .option('--labeler <email>', "that labeler's copy (e.g. the labelerEmail a job was given); default: the reviewer copy")
    .option('--layer <n>', 'the label set to export (its index; default 0)')
    .option('--strict', 'fail on a label a flat format cannot hold (overlapping, nested, deleted, rejected, in conflict, …) instead of leaving it out')
    .option('--split <splits>', 'a release: one file per split in the folder --out, e.g. train=0.8,dev=0.1,test=0.1 (a document\'s split: a hash of its id and --seed)')
    .option('--seed <text>', 'the seed of the splits (a release): the same seed gives the same splits')
    .option('--stratify', 'a release: deal documents to the splits so that each label\'s documents are split in the proportions')
    .option('--status <statuses>', 'only the documents marked so in the copy: completed or in-progress (TextDocument.isCompleted); counted as dropped otherwise')
    .option('--documents <file>', 'only these documents: a file with one document id per line')
    .option('--labels <names>', 'only these labels (comma-separated); the others are dropped and counted')
    .option('--since <manifest>', 'a delta release: only what was added, changed or removed since that release (its manifest.json)')
    .option('--json', 'print the summary as one JSON object')
    .option('--verbose', 'the stack of an error')
    .enablePositionalOptions()
    .addHelpText(
      'after',
      '\nAn export stopped at any moment (Ctrl-C, kill, lost connection, full disk) goes on from the last document written when run again with the same flags; a checkpoint or partial file that does not prove itself is refused. One export at a time writes a file (FILE.lock). A release (--split) is written as DIR.partial and renamed at the end: stopped, it leaves DIR untouched and goes on from its checkpoint when run again.\n' +
        '\nExit: 0 written; 2 bad flags, no such copy or label set, an output that cannot be written or that another export writes, a resume refused, or a label --strict refuses; 4 also a full disk; 130 Ctrl-C.\n' +
        '\nExamples:\n  $ labelkit export --project demo-project --format conll --out gold.conll\n  $ labelkit export --projects projects.txt --format jsonl --out train.jsonl --json' +
        '\n  $ labelkit export --project demo-project --format conll --status completed --labels PERSON,DATE --out reviewed.conll' +
        '\n  $ labelkit export --project demo-project --format jsonl --split train=0.8,dev=0.1,test=0.1 --seed 1 --status completed --out release-1' +
        '\n  $ labelkit export --project demo-project --format jsonl --split train=0.8,dev=0.1,test=0.1 --seed 1 --status completed --since release-1/manifest.json --out delta-2' +
        '\n  $ labelkit export apply-delta release-1 delta-2 --out release-2',
    );
  command.addCommand(applyDeltaCommand(io, done));
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'export' }, async (flags: ExportFlags & ReleaseFlags & CommonFlags, context) => {
      const { runExport } = await import('./runner.js');
      const { runRelease, wantsRelease } = await import('./releaseRunner.js');
      const { printExportSummary, printRelease } = await import('./print.js');
      const { createDocumentProgress } = await import('../../progress.js');
      const progress = createDocumentProgress(io);
      try {
        if (wantsRelease(flags)) {
          const { manifest, resumedAt } = await runRelease(flags, context, progress.onProgress);
          progress.stop();
          printRelease(context.printer, manifest, flags.out!, flags.json === true, resumedAt);
          return EXIT.ok;
        }
        const summary = await runExport(flags, context, progress.onProgress);
        progress.stop();
        printExportSummary(context.printer, summary, flags.json === true);
        return EXIT.ok;
      } finally {
        progress.stop();
      }
    }),
  );
  return command;
}

/**
 * Declares `labelkit export apply-delta OLD DELTA --out NEW [--json]`: the full release from the
 * last one and a delta; no service is called.
 *
 * @param io - the process
 * @param done - receives the exit code (0; 2 bad folders, a delta of another release, a file not its manifest's)
 * @returns the command
 */
function applyDeltaCommand(io: Io, done: (code: number) => void): Command {
  return new Command('apply-delta')
    .description('rebuild the full release from the last one (OLD) and a delta written with --since (DELTA): the same files, byte for byte, as a full export')
    .argument('<old>', "the last release's folder")
    .argument('<delta>', "the delta's folder")
    .option('--out <folder>', 'the new release folder (must not exist, or be empty)')
    .option('--json', 'print the summary as one JSON object')
    .option('--verbose', 'the stack of an error')
    .addHelpText('after', '\nExit: 0 written, 2 bad folders, a delta of another release, or a file that is not the one its manifest names.\n\nExample:\n  $ labelkit export apply-delta release-1 delta-2 --out release-2')
    .action(
      commandAction(io, done, { command: 'export apply-delta' }, async (flags: { out?: string; json?: boolean } & CommonFlags, context, oldDir: string, deltaDir: string) => {
        const { runApplyDelta } = await import('./releaseRunner.js');
        const { printRelease } = await import('./print.js');
        printRelease(context.printer, await runApplyDelta(oldDir, deltaDir, flags), flags.out!, flags.json === true);
        return EXIT.ok;
      }),
    );
}
