import { serve, type ServerType } from '@hono/node-server'
import { buildServices, type Infrastructure } from '@tutoring/adapters'
import { createApp } from './app'
import { startBackgroundJobs } from './background-jobs'

export type RunningServer = { url: string; port: number; stop(): Promise<void> }

/** Serves the app on `port` (0 picks a free one) and, unless switched off, the periodic jobs. */
export async function startServer(infra: Infrastructure, port: number): Promise<RunningServer> {
  const services = buildServices(infra)
  const app = createApp(services)
  const jobs = infra.config.BACKGROUND_JOBS === 'on' ? startBackgroundJobs(services) : undefined
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' }, () => resolve(s))
  })
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    async stop() {
      await jobs?.stop()
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())))
    },
  }
}
