import type { FileHandle } from "node:fs/promises";

/** Writes all of `bytes` at `position`: a write the kernel cut short (file size limit) is continued, or fails. */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
