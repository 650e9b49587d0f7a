// The load generator, in its own process so it neither steals the server's event loop nor
// trips autocannon's own worker-thread mode. Options arrive as JSON in argv[2].
import autocannon from 'autocannon'

const result = await autocannon(JSON.parse(process.argv[2]))
process.send({
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
})
process.disconnect()
