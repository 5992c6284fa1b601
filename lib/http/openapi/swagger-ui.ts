/**
 * Swagger UI's files, from the pinned `swagger-ui-dist` package (nothing from a CDN). Locally they
 * are read from the package; in a Lambda bundle, where node_modules does not exist, from the
 * `swagger-ui/` folder the CDK bundling copies beside the function's code (the system capability's
 * `assets`). Only the files named here are served, each read once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package files the page loads, with their content types. */
export const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Where the bundled function finds the files (the CDK bundling copies them there). */
export const BUNDLED_DIR = 'swagger-ui';

/**
 * The page's own start script: the package's points at a demo document on the internet; this one
 * loads the service's document, relative to the page so it works behind any prefix.
 */
export const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: new URL('../api-docs', window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

let folder: string | undefined;

function swaggerUiDir(): string {
  if (folder) return folder;
  const bundled = join(dirname(fileURLToPath(import.meta.url)), BUNDLED_DIR);
  folder = existsSync(join(bundled, 'swagger-ui-bundle.js'))
    ? bundled
    : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return folder;
}

const cache = new Map<string, Buffer>();

/** A file of the allow-list, or undefined for any other name. */
export function swaggerUiFile(name: string): { body: Buffer; contentType: string } | undefined {
  const contentType = SWAGGER_UI_FILES[name];
  if (contentType === undefined || !Object.hasOwn(SWAGGER_UI_FILES, name)) return undefined;
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(join(swaggerUiDir(), name));
    cache.set(name, body);
  }
  return { body, contentType };
}
