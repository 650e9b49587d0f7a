import { repositoryPart } from '../db/repository-bag'
import { outboxWriter } from './outbox.repository'

/** The outbox context's part of the repository bag (`now` dates what it queues). */
export const outboxRepositories = repositoryPart({
  outside: (db, now) => ({
    outbox: outboxWriter(db, now),
  }),
  names: { outbox: true },
})
