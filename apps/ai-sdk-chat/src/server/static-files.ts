import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** A built file, held in memory. */
export interface StaticFile {
  type: string;
  body: Buffer;
}

/** The page Vite built (`vite build` → dist/), read once, by URL path. */
export function loadStaticFiles(directory: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const url = `/${relative(directory, path).split(sep).join('/')}`;
        files.set(url, {
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          body: readFileSync(path),
        });
      }
    }
  };
  walk(directory);
  return files;
}
