import { html } from 'hono/html'

const page = (title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 4rem auto; padding: 0 1rem; }
      button { display: block; width: 100%; margin-top: 1rem; padding: .5rem; font-size: 1rem; }
    </style>
  </head>
  <body>
    <h1>${title}</h1>
    ${body}
  </body>
</html>`

/**
 * What an emailed Accept or Decline link opens. A GET only shows the question (mail
 * scanners and link previews follow links); the button posts the form to the same signed
 * URL, which acts.
 */
export const rescheduleConfirmPage = (input: { action: 'approve' | 'decline'; subject: string; start: string; suggestedStart: string; suggestedFinish: string }) =>
  page(
    input.action === 'approve' ? 'Accept the new time?' : 'Decline the new time?',
    html`<p>${input.subject} lesson of ${input.start}: proposed ${input.suggestedStart} to ${input.suggestedFinish}.</p>
      ${input.action === 'decline' ? html`<p>Declining cancels the lesson with a full refund.</p>` : ''}
      <form method="post">
        <button type="submit">${input.action === 'approve' ? 'Accept' : 'Decline'}</button>
      </form>`,
  )

export const rescheduleDonePage = (title: string, message: string) => page(title, html`<p>${message}</p>`)
