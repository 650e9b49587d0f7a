import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { validate } from 'dockerfile-utils'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { CONFIG_VARIABLES } from '@tutoring/adapters'

const ROOT = new URL('../../../', import.meta.url)
const read = (file: string) => readFile(fileURLToPath(new URL(file, ROOT)), 'utf8')

type Service = { profiles?: string[]; command?: unknown; configs?: Array<{ source: string; target: string }>; image?: string; build?: unknown; environment?: Record<string, string>; volumes?: string[]; depends_on?: Record<string, { condition: string }>; ports?: string[]; healthcheck?: { test: string[] } }
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown>; configs?: Record<string, { content?: string }> }

/** compose.yaml as Compose reads it: `<<:` merges the shared app settings (YAML 1.1 merge keys). */
const compose = async () => parse(await read('compose.yaml'), { merge: true }) as Compose

/** Every `VARIABLE` named in README's configuration section. */
async function documentedVariables(): Promise<Set<string>> {
  const readme = await read('README.md')
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  return new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!))
}

describe('compose.yaml', () => {
  it('runs PostgreSQL with a streaming replica, Redis and two app instances behind a proxy', async () => {
    const file = await compose()
    const always = Object.entries(file.services).filter(([, service]) => service.profiles === undefined)
    expect(always.map(([name]) => name).sort()).toEqual(['app1', 'app2', 'postgres', 'postgres-replica', 'proxy', 'redis'])
    const { app1, app2, proxy, postgres, redis } = file.services
    const replica = file.services['postgres-replica']
    expect(postgres?.image).toMatch(/^postgres:1[5-9]/)
    expect(replica?.image).toBe(postgres?.image)
    expect(JSON.stringify(replica?.command)).toContain('pg_basebackup -h postgres')
    expect(app1?.environment?.DATABASE_READ_URL).toMatch(/@postgres-replica:5432\//)
    expect(redis?.image).toMatch(/^redis:/)
    expect(app1?.environment).toEqual(app2?.environment)
    expect(app1?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//)
    expect(app1?.environment?.REDIS_URL).toBe('redis://redis:6379')
    expect(app1?.environment?.APP_KEY).toMatch(/^\$\{APP_KEY:\?/)
    expect(Object.keys(proxy?.depends_on ?? {}).sort()).toEqual(['app1', 'app2'])
    // Each instance keeps its own data folder and shares the stored files.
    expect(app1?.volumes).toEqual(['app1-data:/data', 'storage:/data/storage'])
    expect(app2?.volumes).toEqual(['app2-data:/data', 'storage:/data/storage'])
  })

  it('sets only variables the README documents, and the README documents every variable the service reads', async () => {
    const file = await compose()
    const documented = await documentedVariables()
    const set = Object.keys(file.services.app1?.environment ?? {})
    expect(set.length).toBeGreaterThan(5)
    expect(set.filter((name) => !documented.has(name))).toEqual([])
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([])
  })

  it('checks each instance through /readyz, so the proxy waits for one that reaches its database', async () => {
    const { app1, app2 } = (await compose()).services
    for (const app of [app1, app2]) expect(app?.healthcheck?.test.join(' ')).toMatch(/127\.0\.0\.1:3000\/readyz/)
  })

  it('has an observability profile: a collector for traces, Prometheus scraping both instances with the token, Grafana with the dashboard', async () => {
    const file = await compose()
    const profiled = Object.entries(file.services).filter(([, service]) => service.profiles?.includes('observability'))
    expect(profiled.map(([name]) => name).sort()).toEqual(['grafana', 'otel-collector', 'prometheus'])
    const { app1, prometheus, grafana } = file.services
    expect(app1?.environment?.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}')
    expect(app1?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}')
    const collector = parse(await read('deploy/observability/otel-collector.yaml')) as { receivers: { otlp: { protocols: { http: { endpoint: string } } } }; service: { pipelines: { traces: { receivers: string[] } } } }
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318')
    expect(collector.service.pipelines.traces.receivers).toEqual(['otlp'])
    const scrape = (parse(await read('deploy/observability/prometheus.yml')) as { scrape_configs: Array<{ metrics_path: string; authorization: { credentials_file: string }; static_configs: Array<{ targets: string[] }> }> }).scrape_configs[0]!
    expect(scrape.metrics_path).toBe('/metrics')
    expect(scrape.static_configs[0]!.targets).toEqual(['app1:3000', 'app2:3000'])
    expect(prometheus?.configs).toEqual([{ source: 'metrics-token', target: scrape.authorization.credentials_file }])
    expect(file.configs?.['metrics-token']?.content).toBe('${METRICS_TOKEN:-}')
    expect(grafana?.volumes).toContain('./deploy/observability/grafana/dashboards:/var/lib/grafana/dashboards:ro')
    const dashboard = JSON.parse(await read('deploy/observability/grafana/dashboards/tutoring.json')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> }
    const queries = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)).join('\n')
    for (const signal of ['http_server_request_duration_seconds_count', 'status=~"5.."', 'http_server_request_duration_seconds_bucket', 'outbox_depth', 'payments_failing']) {
      expect(queries).toContain(signal)
    }
    expect(dashboard.panels.map((panel) => panel.title)).toEqual(expect.arrayContaining(['Request rate by route', 'Errors (5xx) by route', 'Latency p95 by route', 'Outbox depth by state', 'Failing payments']))
  })

  it('sends the proxy to both instances on the port the image serves', async () => {
    const nginx = await read('deploy/nginx.conf')
    const upstreams = [...nginx.matchAll(/^\s*server\s+([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`)
    expect(upstreams).toEqual(['app1:3000', 'app2:3000'])
    const file = await compose()
    expect(file.services.proxy?.volumes).toContain('./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro')
    expect(await read('Dockerfile')).toMatch(/^\s*PORT=3000\b/m)
  })
})

describe('Dockerfile', () => {
  it('lints clean', async () => {
    expect(validate(await read('Dockerfile')).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([])
  })

  it('builds in one stage and runs the pruned deploy as a non-root user with a health check in another', async () => {
    const dockerfile = await read('Dockerfile')
    const stages = dockerfile.split(/^FROM /m).slice(1)
    expect(stages.length).toBeGreaterThanOrEqual(2)
    expect(stages[0]).toMatch(/pnpm --filter @tutoring\/http deploy --legacy --prod/)
    const runtime = stages.at(-1)!
    expect(runtime).toMatch(/^COPY --from=build\b/m)
    expect(runtime).toMatch(/^USER (?!root\b|0\b)\w+/m)
    expect(runtime).toMatch(/^HEALTHCHECK .*\/healthz/ms)
    expect(runtime).not.toMatch(/pnpm install|node_modules\/\.bin\/tsx/)
  })
})
