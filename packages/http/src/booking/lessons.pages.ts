import { html } from 'hono/html'
import { htmlPage } from '../platform/html-page'

const STYLES = `button { display: block; width: 100%; margin-top: 1rem; padding: .5rem; font-size: 1rem; }`
const page = (title: string, body: ReturnType<typeof html>) => htmlPage(title, body, STYLES)

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
