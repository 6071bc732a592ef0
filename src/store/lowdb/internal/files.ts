import { open, type FileHandle } from "node:fs/promises";

/** Makes a rename, a creation or an unlink in `directory` durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `bytes` at `position`: a write the kernel cut short (file size limit) is continued, or fails. */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

export function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
