// The load generator, in its own process so it neither steals the server's event loop nor
// trips autocannon's own worker-thread mode. Options arrive as JSON in argv[2].
import autocannon from 'autocannon'

// autocannon's histogram has no 95th percentile; every response time is kept to compute it.
const times = []
const instance = autocannon(JSON.parse(process.argv[2]))
instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
const result = await instance
times.sort((a, b) => a - b)
const percentile = (p) => (times.length === 0 ? 0 : times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)])
process.send({
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p95: Math.round(percentile(95) * 100) / 100,
  p99: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
})
process.disconnect()
