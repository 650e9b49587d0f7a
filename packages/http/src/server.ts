import { createServer } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { buildServices, type Infrastructure } from '@tutoring/adapters'
import { createApp } from './app'
import { startBackgroundJobs } from './background-jobs'
import type { Lifecycle } from './platform/lifecycle'

const HOST = '0.0.0.0'

export type RunningServer = {
  url: string
  port: number
  /** Stops gracefully (see startServer); resolves when nothing is left running. */
  stop(): Promise<void>
}

/**
 * Serves the app on `port` (0 picks a free one) and, unless switched off, the periodic jobs.
 * `stop` drains: `/readyz` turns 503 and every answer closes its connection, no connection
 * is accepted any more and idle ones are closed, the requests and job runs under way
 * finish, and whatever is still running after SHUTDOWN_TIMEOUT_MS is cut off.
 */
export async function startServer(infra: Infrastructure, port: number): Promise<RunningServer> {
  const lifecycle: Lifecycle = { draining: false }
  const services = buildServices(infra)
  const app = createApp(services, lifecycle)
  const jobs = infra.config.BACKGROUND_JOBS === 'on' ? startBackgroundJobs(services) : undefined
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: HOST }, () => resolve(s))
    s.once('error', (error: NodeJS.ErrnoException) => reject(new Error(portProblem(port, error))))
  })
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  let stopping: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    stop() {
      stopping ??= drain(server, lifecycle, infra.config.SHUTDOWN_TIMEOUT_MS, jobs)
      return stopping
    },
  }
}

/**
 * Fails when `port` cannot be listened on (taken, or not ours to take), by listening on it
 * for a moment. Port 0 is always free. Another process may still take the port before the
 * server binds it; then `startServer` fails, later but as plainly.
 */
export async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(new Error(portProblem(port, error))))
    probe.listen(port, HOST, () => probe.close(() => resolve()))
  })
}

const portProblem = (port: number, error: NodeJS.ErrnoException): string =>
  error.code === 'EADDRINUSE' ? `port ${port} is already in use (set PORT to a free one)` : error.code === 'EACCES' ? `port ${port} may not be used by this user (set PORT above 1023)` : `port ${port} cannot be listened on: ${error.message}`

async function drain(server: ServerType, lifecycle: Lifecycle, deadlineMs: number, jobs: { stop(deadlineMs: number): Promise<void> } | undefined) {
  lifecycle.draining = true
  const http = 'closeAllConnections' in server ? server : undefined
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  http?.closeIdleConnections()
  const cutOff = setTimeout(() => http?.closeAllConnections(), deadlineMs)
  try {
    await Promise.all([closed, jobs?.stop(deadlineMs)])
  } finally {
    clearTimeout(cutOff)
  }
}
