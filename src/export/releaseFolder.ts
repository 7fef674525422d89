import { rename, rmdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorCode } from '../shared/classify.js';
import { openExclusive, syncFolder } from '../shared/fileWrites.js';

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
  await syncFolder(dirname(out));
}

/**
 * Creates a file of a folder being written (exclusively, never through a link), fsynced.
 *
 * @param path - the file
 * @param text - its content
 */
export async function writeNewFile(path: string, text: string): Promise<void> {
  const handle: FileHandle = await openExclusive(path);
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
