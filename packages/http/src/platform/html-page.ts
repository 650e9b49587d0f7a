import { html, raw } from 'hono/html'

/**
 * The few server-rendered pages (the legacy login form, the reschedule confirmation) share
 * one plain shell; `styles` adds each page's own rules.
 */
export const htmlPage = (title: string, body: ReturnType<typeof html>, styles: string) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 4rem auto; padding: 0 1rem; }
      ${raw(styles)}
    </style>
  </head>
  <body>
    <h1>${title}</h1>
    ${body}
  </body>
</html>`
