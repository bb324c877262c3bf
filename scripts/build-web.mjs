// Builds the web app when its build is missing or older than any of its sources: the browser's bundle
// (apps/web/dist/public), then the prerenderer (dist/ssr, removed after use), which writes every public
// page as HTML (dist/pages).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const webDir = join(root, 'apps/web');
const distDir = join(webDir, 'dist');
const stamp = join(distDir, '.build-stamp');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'apps/web/package.json',
  'packages/contracts/src',
  'package-lock.json',
];

function newestMtime(path) {
  if (!existsSync(path)) {
    return 0;
  }
  const stats = statSync(path);
  if (!stats.isDirectory()) {
    return stats.mtimeMs;
  }
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function isWebBuildFresh() {
  if (!existsSync(stamp)) {
    return false;
  }
  const built = statSync(stamp).mtimeMs;
  return sources.every((source) => newestMtime(join(root, source)) <= built);
}

function vite(args, quiet) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), ...args], {
    cwd: webDir,
    // Always the production build: a test runner's NODE_ENV=test would otherwise bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    if (quiet) {
      process.stderr.write(result.stdout ?? '');
      process.stderr.write(result.stderr ?? '');
    }
    throw new Error('The web app failed to build; see the output above.');
  }
}

async function prerender() {
  const ssrDir = join(distDir, 'ssr');
  const pagesDir = join(distDir, 'pages');
  const { prerenderSite } = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
  const template = readFileSync(join(distDir, 'public/index.html'), 'utf8');
  const pages = await prerenderSite(template);
  rmSync(pagesDir, { recursive: true, force: true });
  for (const page of pages) {
    const file = join(pagesDir, page.file);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page.text);
  }
  rmSync(ssrDir, { recursive: true, force: true });
  return pages.length;
}

/** Brotli and gzip twins of the scripts, styles and SVGs, which the server sends to browsers that take them. */
function precompressAssets() {
  const assetsDir = join(distDir, 'public/assets');
  for (const name of readdirSync(assetsDir)) {
    if (!/\.(js|css|svg)$/.test(name)) {
      continue;
    }
    const path = join(assetsDir, name);
    const body = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  }
}

export async function ensureWebBuilt({ quiet = false, force = false } = {}) {
  if (!force && isWebBuildFresh()) {
    return;
  }
  if (!quiet) {
    console.log('Building the web app...');
  }
  rmSync(stamp, { force: true });
  vite(['build'], quiet);
  precompressAssets();
  vite(['build', '--ssr', 'src/entry-server.tsx', '--outDir', 'dist/ssr', '--emptyOutDir'], quiet);
  const count = await prerender();
  if (!quiet) {
    console.log(`Prerendered the public pages, sitemap.xml and robots.txt (${count} files).`);
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureWebBuilt({ force: process.argv.includes('--force') });
}
