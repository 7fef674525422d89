import { open, rename, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorCode } from '../shared/classify.js';
import { ExportError } from './errors.js';

/** A lock held on a release folder. */
export interface ReleaseLock {
  release(): Promise<void>;
}

/**
 * Takes `<out>.lock`: one writer per release folder.
 *
 * @param out - the release folder
 * @returns the lock
 * @throws {@link ExportError} `LOCKED` naming the process that holds it
 */
export async function lockRelease(out: string): Promise<ReleaseLock> {
  const path = `${out}.lock`;
  const handle = await open(path, 'wx').catch((error: unknown) => {
    if (errorCode(error) === 'EEXIST') throw new ExportError('OUT', '--out', `${out} is being written by another run (lock ${path})`);
    throw error;
  });
  await handle.writeFile(`${process.pid}\n`);
  await handle.close();
  return { release: () => rmdir(path).catch(() => import('node:fs/promises').then((fs) => fs.rm(path, { force: true }))) };
}

/**
 * Renames a complete release folder into place: `out` must not exist or be an empty folder.
 *
 * @param partial - the folder written
 * @param out - its name once complete
 */
export async function publishFolder(partial: string, out: string): Promise<void> {
  await rmdir(out).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
  await rename(partial, out);
  const parent = await open(dirname(out), 'r').catch(() => undefined);
  await parent?.sync().catch(() => undefined);
  await parent?.close();
}

/**
 * Creates a file of a folder being written (never one that exists), fsynced.
 *
 * @param path - the file
 * @param text - its content
 */
export async function writeNewFile(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
