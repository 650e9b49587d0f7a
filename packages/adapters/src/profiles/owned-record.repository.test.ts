import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PersonalRecords } from '@tutoring/domain/profiles'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { DatabaseHandle } from '../db/connect'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { personalRecords } from './personal-records.repository'

describe.each(testDatabaseKinds())('owned records on %s', (kind) => {
  let handle: DatabaseHandle
  let records: WithoutLocks<PersonalRecords>
  let owner: number
  let other: number
  const at = new Date('2026-11-22T10:00:00Z')

  const user = async (name: string) =>
    (
      await handle.db
        .insertInto('users')
        .values({ email: `${name}@example.com`, password_hash: 'x', username: name, firstname: 'Ada', lastname: 'Lovelace', role_id: 2, country: 'GB', email_verified_at: null, processor_customer_id: null, processor_account_id: null, deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id

  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    records = personalRecords(handle.db)
    owner = await user('owner')
    other = await user('other')
  })
  afterAll(() => handle.close())

  it('lists one user’s records in the table’s order, ties broken by id', async () => {
    const fields = { institution: 'UCL', qualification: 'BSc', subject: null, endYear: null }
    const older = await records.education.insert(owner, { ...fields, startYear: 2010 })
    const newer = await records.education.insert(owner, { ...fields, startYear: 2015 })
    const twin = await records.education.insert(owner, { ...fields, startYear: 2015 })
    await records.education.insert(other, { ...fields, startYear: 2020 })
    expect((await records.education.listByUser(owner)).map((e) => e.id)).toEqual([newer.id, twin.id, older.id])
    expect(older).toEqual({ id: older.id, userId: owner, ...fields, startYear: 2010 })
  })

  it('changes only the fields a patch names', async () => {
    const created = await records.professions.insert(owner, { title: 'Teacher', organisation: 'School', startDate: '2019-09-01', endDate: null, description: 'Maths' })
    const updated = await records.professions.update(created.id, { endDate: '2023-07-31' })
    expect(updated).toEqual({ ...created, endDate: '2023-07-31' })
    expect(await records.professions.findById(created.id)).toEqual(updated)
  })

  it('maps an owner column of another name (a child’s parent)', async () => {
    const child = await records.children.insert(owner, { firstname: 'Ben', lastname: 'Lovelace', dateOfBirth: '2014-03-02' })
    expect(child).toMatchObject({ userId: owner, firstname: 'Ben', dateOfBirth: '2014-03-02' })
    expect(await records.children.listByUser(owner)).toEqual([child])
    expect(await records.children.listByUser(other)).toEqual([])
  })

  it('keeps a removed child’s row for the lessons that name it, and finds it no more', async () => {
    const child = await records.children.insert(owner, { firstname: 'Cat', lastname: 'Lovelace', dateOfBirth: null })
    await records.children.remove(child.id, at)
    expect(await records.children.findById(child.id)).toBeUndefined()
    expect((await records.children.listByUser(owner)).map((c) => c.id)).not.toContain(child.id)
    const row = await handle.db.selectFrom('children').select('deleted_at').where('id', '=', child.id).executeTakeFirstOrThrow()
    expect(row.deleted_at).toEqual(at)
  })

  it('deletes the row of any other removed record', async () => {
    const link = await records.socialLinks.insert(owner, { platform: 'website', url: 'https://example.com' })
    await records.socialLinks.remove(link.id, at)
    expect(await records.socialLinks.findById(link.id)).toBeUndefined()
    expect(await handle.db.selectFrom('social_links').select('id').where('id', '=', link.id).executeTakeFirst()).toBeUndefined()
  })

  it('removes every address of a user at once, and no other record', async () => {
    const address = await records.addresses.insert(owner, { line1: '1 High Street', line2: null, city: 'London', postcode: 'SW1A 1AA', country: 'GB' })
    expect(address).toMatchObject({ userId: owner, country: 'GB', line2: null })
    await records.mobileNumbers.insert(owner, { number: '+447700900123' })
    await records.addresses.removeAllForUser(owner)
    expect(await records.addresses.listByUser(owner)).toEqual([])
    expect(await records.mobileNumbers.listByUser(owner)).toHaveLength(1)
  })
})
