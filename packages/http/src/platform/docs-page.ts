import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { problems } from './problem'
import type { App } from './routes'

/**
 * GET /docs: Swagger UI from the `swagger-ui-dist` package this service depends on (its
 * version pinned by the lockfile), served by the service itself, so the page works with no
 * internet and shows what this build documents. The policy header makes the browser refuse
 * anything from another origin, should a future Swagger UI reach out.
 */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI (React) sets style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tutoring Marketplace API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`

// A file, not an inline script, so the policy can refuse inline scripts. No validator badge:
// Swagger UI would send the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null })\n`

const cached = new Map<string, Uint8Array<ArrayBuffer>>()
const asset = async (name: string): Promise<Uint8Array<ArrayBuffer>> => {
  let body = cached.get(name)
  if (!body) {
    body = new Uint8Array(await readFile(path.join(SWAGGER_UI_DIR, name)))
    cached.set(name, body)
  }
  return body
}

export function docsRoutes(app: App): void {
  app.get('/docs', (c) => c.html(PAGE, 200, { 'content-security-policy': POLICY }))
  app.get('/docs/assets/init.js', (c) =>
    c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'content-security-policy': POLICY }),
  )
  app.get('/docs/assets/:name', async (c) => {
    const name = c.req.param('name')
    const type = ASSETS[name]
    if (!type) throw problems.notFound('No such documentation asset.')
    return c.body(await asset(name), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400', 'content-security-policy': POLICY })
  })
}
