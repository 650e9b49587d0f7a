import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * An AsyncLocalStorage switched off whenever no `run` of it is under way. On Node 20 and 22
 * a storage's async hook stays on from its first `run` for good, and then costs every
 * promise the process makes, in a transaction or not: a fifth of the CPU of a plain read in
 * the http bench. Off between runs, a request that starts none pays nothing. A `run` turns
 * it back on; what ran inside an earlier one sees what it would have seen anyway.
 */
export function idleStorage<T>() {
  const storage = new AsyncLocalStorage<T>()
  let running = 0
  return {
    getStore: (): T | undefined => storage.getStore(),
    async run<R>(store: T, work: () => Promise<R>): Promise<R> {
      running++
      try {
        return await storage.run(store, work)
      } finally {
        if (--running === 0) storage.disable()
      }
    },
  }
}
