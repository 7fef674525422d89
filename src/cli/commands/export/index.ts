import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { ExportFlags } from './runner.js';

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
    .option('--json', 'print the summary as one JSON object')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nAn export stopped at any moment (Ctrl-C, kill, lost connection, full disk) goes on from the last document written when run again with the same flags; a checkpoint or partial file that does not prove itself is refused. One export at a time writes a file (FILE.lock).\n' +
        '\nExit: 0 written; 2 bad flags, no such copy or label set, an output that cannot be written or that another export writes, a resume refused, or a label --strict refuses; 4 also a full disk; 130 Ctrl-C.\n' +
        '\nExamples:\n  $ labelkit export --project demo-project --format conll --out gold.conll\n  $ labelkit export --projects projects.txt --format jsonl --out train.jsonl --json',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'export' }, async (flags: ExportFlags & CommonFlags, context) => {
      const { runExport } = await import('./runner.js');
      const { printExportSummary } = await import('./logger.js');
      const { createDocumentProgress } = await import('../eval/logger.js');
      const progress = createDocumentProgress(io);
      try {
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
