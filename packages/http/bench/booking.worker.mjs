// The booking load generator, in its own process: `connections` loops each take the next
// prepared request (its own token and body) and record the latency and status of each answer.
// The options arrive as one IPC message (too large for argv); the load starts at the next
// message, so the parent can start measuring after the options have been sent.
const { url, requests, connections, durationSeconds } = await new Promise((resolve) => process.once('message', resolve))
process.send({ ready: true })
await new Promise((resolve) => process.once('message', resolve))

const latencies = []
const statuses = {}
let next = 0
let errors = 0

async function loop() {
  while (Date.now() < deadline && next < requests.length) {
    const request = requests[next++]
    const started = performance.now()
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${request.token}` },
        body: JSON.stringify(request.body),
      })
      await res.arrayBuffer()
      statuses[res.status] = (statuses[res.status] ?? 0) + 1
    } catch {
      errors++
    }
    latencies.push(performance.now() - started)
  }
}

const deadline = Date.now() + durationSeconds * 1000
const began = performance.now()
await Promise.all(Array.from({ length: connections }, loop))
const seconds = (performance.now() - began) / 1000
latencies.sort((a, b) => a - b)
const at = (q) => (latencies.length === 0 ? 0 : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10)
process.send({ total: latencies.length, requestsPerSecond: latencies.length / seconds, p50: at(0.5), p95: at(0.95), p99: at(0.99), statuses, errors, exhausted: next >= requests.length })
process.disconnect()
