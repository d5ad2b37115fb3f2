import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InspectorError } from '../inspector-error';

/** One file the server answers with. */
export interface Asset {
  body: Buffer;
  type: string;
}

/** The web app's files, read once: `index.html`, `app.js`, `app.css`. */
export interface WebAssets {
  index: Asset;
  files: Map<string, Asset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The built web app's folder: `dist/web` beside the built server, or the package's `dist/web` from source. */
function webFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, 'web'),
    join(here, '..', 'web'),
    join(here, '..', '..', 'dist', 'web'),
    join(here, '..', 'dist', 'web'),
  ];
  const found = candidates.find((candidate) => existsSync(join(candidate, 'app.js')));
  if (found === undefined)
    throw new InspectorError({
      code: 'invalid_option',
      message: `The Inspector's web app is not built (looked in ${candidates.join(', ')}): run \`pnpm --filter @mtpx/inspector build\`.`,
    });
  return found;
}

/** The page every route of the app answers with; the app reads the path itself. */
export function indexHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MTPX Inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<div id="app"><p class="loading">Loading…</p></div>
<script src="/assets/app.js"></script>
</body>
</html>
`;
}

/** Reads the web app's files into memory. */
export function loadWebAssets(): WebAssets {
  const folder = webFolder();
  const files = new Map<string, Asset>();
  for (const name of ['app.js', 'app.css', 'app.js.map']) {
    const path = join(folder, name);
    if (!existsSync(path)) continue;
    const extension = name.slice(name.lastIndexOf('.'));
    files.set(`/assets/${name}`, {
      body: readFileSync(path),
      type: TYPES[extension] ?? 'application/octet-stream',
    });
  }
  return { index: { body: Buffer.from(indexHtml()), type: 'text/html; charset=utf-8' }, files };
}
