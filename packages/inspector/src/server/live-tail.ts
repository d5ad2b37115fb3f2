import { type FSWatcher, watch } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * Follows a growing JSON Lines file: calls `onLine` with each whole new line as it is
 * appended (a torn last line waits for its end), from byte `offset` on. Reads on file
 * change notifications, and every `pollMs` as a fallback for file systems that send none.
 */
export function tailLines(
  path: string,
  onLine: (line: string) => void,
  options: { pollMs?: number } = {},
): { stop(): void; ready: Promise<void> } {
  let offset = 0;
  let remainder = '';
  const decoder = new StringDecoder('utf8');
  let reading = false;
  let again = false;
  let stopped = false;
  let watcher: FSWatcher | undefined;
  const read = async (): Promise<void> => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const file = await open(path, 'r');
      try {
        for (;;) {
          const buffer = Buffer.alloc(64 * 1024);
          const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
          if (bytesRead === 0) break;
          offset += bytesRead;
          const text = remainder + decoder.write(buffer.subarray(0, bytesRead));
          const lines = text.split('\n');
          remainder = lines.pop() ?? '';
          for (const line of lines) if (!stopped && line.trim() !== '') onLine(line);
        }
      } finally {
        await file.close();
      }
    } catch {
      // The file may be gone or not there yet: the next notification reads again.
    } finally {
      reading = false;
    }
    if (again) {
      again = false;
      await read();
    }
  };
  try {
    watcher = watch(path, () => void read());
    watcher.on('error', () => {});
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(() => void read(), options.pollMs ?? 500);
  timer.unref();
  return {
    ready: read(),
    stop() {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
