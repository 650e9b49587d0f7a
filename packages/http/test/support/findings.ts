/**
 * What a security or reliability test attacked and what held, attached to the test so that
 * findings-reporter.ts can print one line per finding class (or fault scenario).
 */
export type Finding = {
  /** The line this test adds to: tests of one class (and of both databases) share it. */
  class: string
  /** What was tried, in a few words. */
  tried: string
  /** What held, in a few words. */
  held: string
  /** Counts summed across the class's tests; a name containing "peak" keeps the largest instead. */
  figures?: Record<string, number>
}

declare module 'vitest' {
  interface TaskMeta {
    finding?: Finding
  }
}

type WithMeta = { meta: { finding?: Finding } }

/**
 * Call it first thing, so a test that fails part-way still marks its class as failed; set
 * `figures` on the answer when the test has them.
 */
export function recordFinding(task: WithMeta, finding: Finding): Finding {
  task.meta.finding = finding
  return finding
}

/** Counts what a test sends and how often a limit answered, for its finding. */
export class Tally {
  requests = 0
  limitsReached = 0
  /** Of streamed attacks: the most body any had sent when its answer came, so the most the server can have read. */
  mostSentMiB = 0
  send<T extends { status: number; sentBeforeAnswer?: number }>(answer: T, limitStatuses: readonly number[] = [400, 401, 404, 413, 415, 422, 429]): T {
    this.requests++
    if (limitStatuses.includes(answer.status)) this.limitsReached++
    if (answer.sentBeforeAnswer !== undefined) this.mostSentMiB = Math.max(this.mostSentMiB, Math.round((answer.sentBeforeAnswer / 2 ** 20) * 10) / 10)
    return answer
  }
}

/**
 * The largest growth of this process's resident memory while `work` runs, sampled every
 * 5 ms, in MiB. The server under test runs in this process, so this is its peak too.
 */
export async function memoryPeakMiB<T>(work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  const base = process.memoryUsage.rss()
  let peak = base
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 5)
  try {
    const result = await work()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { result, peakMiB: Math.max(0, Math.round(((peak - base) / 2 ** 20) * 10) / 10) }
  } finally {
    clearInterval(timer)
  }
}
