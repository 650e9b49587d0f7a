import type { Kysely, Transaction } from 'kysely'
import type { Database } from './database'

/**
 * One context's part of the repository bag: the names it answers, known without building it
 * (the bag builds a part only when one of them is first read), its repositories outside a
 * transaction (on the pool), and the same bound to a transaction with the row locks they take there.
 */
export interface RepositoryPart<Outside extends object, Inside extends object> {
  readonly names: readonly string[]
  outside(db: Kysely<Database>, now: () => Date): Outside
  inside(trx: Transaction<Database>, now: () => Date): Inside
}

type AnyPart = RepositoryPart<object, object>

/** Every name a part's repositories answer, once each: listed so the bag knows them unbuilt. */
type Names<Repos> = NoInfer<{ readonly [K in keyof Repos]-?: true }>

type Builder<Executor, Repos> = (db: Executor, now: () => Date) => Repos

/** What a part's locks may be: each replaces one of its repositories with it and its row locks. */
type LocksOf<Outside, Locks> = { [K in keyof Locks]: K extends keyof Outside ? Outside[K] : never }

/**
 * A context's part: `names` must name exactly what its repositories answer (the compiler holds
 * them to what `outside` builds), and `locks` may only add row locks to those repositories,
 * bound to a transaction. `now` is the service's clock, which dates what the outbox queues.
 */
export function repositoryPart<Outside extends object, Locks extends LocksOf<Outside, Locks> = Record<never, never>>(part: {
  outside: Builder<Kysely<Database>, Outside>
  locks?: (trx: Transaction<Database>, repos: Outside) => Locks
  names: Names<Outside>
}): RepositoryPart<Outside, Outside & Locks>
// One signature for callers: without `locks`, `Locks` is its default (nothing), which the compiler cannot see here.
export function repositoryPart(part: { outside: Builder<Kysely<Database>, object>; locks?: (trx: Transaction<Database>, repos: object) => object; names: object }): AnyPart {
  const { outside, locks } = part
  return {
    names: Object.keys(part.names),
    outside,
    inside: (trx, now) => {
      const repos = outside(trx, now)
      return locks ? { ...repos, ...locks(trx, repos) } : repos
    },
  }
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never
type OutsideOf<P> = P extends RepositoryPart<infer Outside, object> ? Outside : never
type InsideOf<P> = P extends RepositoryPart<object, infer Inside> ? Inside : never

/** Every part's repositories outside a transaction (on the pool), as one bag. */
export type OutsideBag<Parts extends readonly AnyPart[]> = UnionToIntersection<OutsideOf<Parts[number]>>
/** Every part's repositories in a transaction, as one bag. */
export type InsideBag<Parts extends readonly AnyPart[]> = UnionToIntersection<InsideOf<Parts[number]>>

const CONTEXT = Symbol('what the bag builds its parts with')
type Lazy<Context> = { [CONTEXT]: Context }

/**
 * A bag maker: each bag answers every part's names by getters on a prototype made here once,
 * so a bag costs one small object. The first read of a name builds its part (`build`) and
 * keeps its repositories on the bag itself (its own keys are the parts built so far).
 * A name two parts answer is refused here, when the service starts.
 */
function lazyBag<Bag, Context>(parts: readonly AnyPart[], build: (part: AnyPart, context: Context) => object): (context: Context) => Bag {
  const prototype = {}
  const answered = new Set<string>()
  for (const part of parts) {
    for (const name of part.names) {
      if (answered.has(name)) throw new Error(`two parts of the repository bag answer '${name}'`)
      answered.add(name)
      Object.defineProperty(prototype, name, {
        enumerable: true,
        get(this: Lazy<Context>) {
          const repos = build(part, this[CONTEXT]) as Record<string, unknown>
          for (const own of part.names) Object.defineProperty(this, own, { value: repos[own], enumerable: true })
          return repos[name]
        },
      })
    }
  }
  return (context) => {
    const bag: Lazy<Context> = Object.create(prototype)
    bag[CONTEXT] = context
    // What the getters answer is `Bag` by construction: each part's names are held to its builders' keys.
    return bag as unknown as Bag
  }
}

/** Bags of every part's repositories outside a transaction (on the pool). */
export const outsideBags = <Parts extends readonly AnyPart[]>(parts: Parts) =>
  lazyBag<OutsideBag<Parts>, { db: Kysely<Database>; now: () => Date }>(parts, (part, { db, now }) => part.outside(db, now))

/** Bags of every part's repositories bound to one transaction, with their locks. */
export const insideBags = <Parts extends readonly AnyPart[]>(parts: Parts) =>
  lazyBag<InsideBag<Parts>, { trx: Transaction<Database>; now: () => Date }>(parts, (part, { trx, now }) => part.inside(trx, now))
