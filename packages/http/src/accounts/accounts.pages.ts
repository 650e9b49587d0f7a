import { html } from 'hono/html'
import { htmlPage } from '../platform/html-page'

const STYLES = `label, input, button { display: block; width: 100%; margin-top: .5rem; } input, button { padding: .5rem; font-size: 1rem; } #result { margin-top: 1rem; }`
const page = (title: string, body: ReturnType<typeof html>) => htmlPage(title, body, STYLES)

/** Posts the form as JSON, the only body the API reads, and shows the answer. */
const submitAsJson = (endpoint: string) => html`<script>
  document.querySelector('form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const body = Object.fromEntries(new FormData(event.target))
    const res = await fetch('${endpoint}', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const answer = await res.json().catch(() => ({}))
    document.getElementById('result').textContent = res.ok ? 'Done.' : (answer.detail || answer.title || 'Something went wrong.')
  })
</script>`

export const loginFormPage = () =>
  page(
    'Log in',
    html`<form>
        <label>Email <input name="email" type="email" autocomplete="username" required /></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
        <button type="submit">Log in</button>
      </form>
      <p id="result"></p>
      ${submitAsJson('/api/v1/auth/login')}`,
  )

export const resetPasswordPage = (email: string, token: string) =>
  page(
    'Choose a new password',
    html`<form>
        <input type="hidden" name="email" value="${email}" />
        <input type="hidden" name="token" value="${token}" />
        <label>New password <input name="password" type="password" minlength="8" maxlength="128" autocomplete="new-password" required /></label>
        <button type="submit">Change password</button>
      </form>
      <p id="result"></p>
      ${submitAsJson('/api/auth/reset')}`,
  )
