import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** A free TCP port on the loopback interface, as the kernel hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * A redis-server of the test's own on a free port (no persistence), which the test can
 * stop and start again on the same port to inject an outage.
 */
export class TestRedis {
  private process: ChildProcess | undefined
  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    // A port found free can be taken by another test's process before redis binds it: try another.
    for (let attempt = 1; ; attempt++) {
      const redis = new TestRedis(await freePort())
      try {
        await redis.start()
        return redis
      } catch (error) {
        if (attempt >= 5 || !String(error).includes('Address already in use')) throw error
      }
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** Starts the server and resolves once it accepts connections. */
  start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
    this.process = child
    return new Promise((resolve, reject) => {
      let output = ''
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000)
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${code}: ${output}`))
      })
    })
  }

  /** Kills the server (as a crash would) and resolves once it is gone. */
  stop(): Promise<void> {
    const child = this.process
    this.process = undefined
    if (!child || child.exitCode !== null) return Promise.resolve()
    return new Promise((resolve) => {
      child.removeAllListeners('exit')
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  }
}
