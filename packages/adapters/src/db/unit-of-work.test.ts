import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok } from 'neverthrow'
import type { UnitOfWork } from '@tutoring/domain/shared'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import type { DatabaseHandle } from './connect'
import { makeRepositories, makeTransactionRepositories, type Repositories } from '../repositories'
import { bookingLocks } from '../booking/booking.repository'
import { createUnitOfWork } from './unit-of-work'

describe.each(testDatabaseKinds())('the unit of work on %s', (kind) => {
  let handle: DatabaseHandle
  let uow: UnitOfWork<Repositories>
  // The service's clock, a day behind the database's.
  const serviceNow = new Date(Date.now() - 24 * 3600_000)
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    uow = createUnitOfWork<Repositories>(handle.db, {
      outside: (db) => makeRepositories(db, () => serviceNow),
      inside: (trx) => makeTransactionRepositories(trx, () => serviceNow),
    })
  })
  afterAll(() => handle.close())

  it('offers no lock outside a transaction, to the compiler or at run time', () => {
    // @ts-expect-error a row lock outside a transaction ends with its own statement
    expect(uow.repos.bookings.lockById).toBeUndefined()
    // @ts-expect-error nested bags too
    expect(uow.repos.personalRecords.owners.lock).toBeUndefined()
    // @ts-expect-error the adapters' locks take a Transaction, not the pool
    expect(() => bookingLocks(handle.db)).not.toThrow()
    expect(uow.repos.bookings.findById).toBeTypeOf('function')
  })

  it('offers every lock inside a transaction, and they run there', async () => {
    const result = await uow.run(async (repos) => {
      await repos.bookings.lockTutor(1)
      await repos.bookings.lockTutorAndBooker(2, 1)
      await repos.cards.lockUser(1)
      return ok({
        booking: await repos.bookings.lockById(-1),
        owner: await repos.personalRecords.owners.lock(-1),
        verification: await repos.verifications.lockByReference('none'),
        subscription: await repos.subscriptions.lockByProcessorId('none'),
      })
    })
    expect(result._unsafeUnwrap()).toEqual({ booking: undefined, owner: undefined, verification: undefined, subscription: undefined })
  })

  it('queues messages due from the service clock it was given, in a transaction or not', async () => {
    await uow.repos.outbox.enqueue({ kind: 'email', template: 'verify_email', to: 'outside@example.com', data: {} })
    await uow.run(async (repos) => ok(await repos.outbox.enqueue({ kind: 'email', template: 'verify_email', to: 'inside@example.com', data: {} })))
    const rows = await handle.db.selectFrom('outbox').select(['payload', 'available_at']).orderBy('id', 'desc').limit(2).execute()
    expect(rows.map((r) => [(r.payload as { to: string }).to, r.available_at])).toEqual([['inside@example.com', serviceNow], ['outside@example.com', serviceNow]])
  })
})
