import { serve, type ServerType } from '@hono/node-server'
import { buildServices, type Infrastructure } from '@tutoring/adapters'
import { createApp } from './app'
import { startBackgroundJobs } from './background-jobs'
import type { Lifecycle } from './platform/lifecycle'

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
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' }, () => resolve(s))
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
