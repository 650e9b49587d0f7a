import { describe, expect, it } from 'vitest'
import type { OutboxMessage } from '../outbox'
import { ROLE_IDS, type InboundEvent, type RoleId } from '../shared'
import type { User } from '../accounts'
import type { IdentityProvider, NewVerification, VerificationDeps, VerificationRepos } from './ports'
import { recordProviderResult } from './record-provider-result'
import { reviewVerification } from './review-verification'
import { startIdentityCheck } from './start-identity-check'
import type { VerificationRecord } from './verification-record'

const at = new Date('2026-11-22T10:00:00Z')
const user = (id: number, role: keyof typeof ROLE_IDS): User => ({
  id,
  email: `u${id}@example.com`,
  username: `u${id}`,
  firstname: 'Ada',
  lastname: 'Lovelace',
  roleId: ROLE_IDS[role] as RoleId,
  country: 'GB',
  emailVerifiedAt: null,
  createdAt: at,
})
const record = (over: Partial<VerificationRecord>): VerificationRecord => ({
  id: 1,
  userId: 7,
  kind: 'identity',
  status: 'PENDING',
  reference: 'ref_1',
  redirectUrl: null,
  documentFileId: null,
  certificateNumber: null,
  issueDate: null,
  reviewedBy: null,
  createdAt: at,
  updatedAt: at,
  ...over,
})

/** In-memory ports; `lockFirst` lets a test play a concurrent request that wins the row. */
function fakes(options: { rows?: VerificationRecord[]; lockFirst?: VerificationRecord } = {}) {
  const rows = [...(options.rows ?? [])]
  const seen = new Set<string>()
  const outbox: OutboxMessage[] = []
  const checks: string[] = []
  let lockFirst = options.lockFirst
  const repos: VerificationRepos = {
    users: { findById: async (id: number) => user(id, id === 99 ? 'internal' : 'tutor') } as unknown as VerificationRepos['users'],
    verifications: {
      findByUserAndKind: async (userId, kind) => rows.find((r) => r.userId === userId && r.kind === kind),
      lockByUserAndKind: async (userId, kind) => {
        if (lockFirst) {
          rows.push(lockFirst)
          lockFirst = undefined
        }
        return rows.find((r) => r.userId === userId && r.kind === kind)
      },
      lockByReference: async (reference) => rows.find((r) => r.reference === reference),
      insert: async (v: NewVerification) => {
        if (rows.some((r) => r.userId === v.userId && r.kind === v.kind)) return undefined
        const created = record({ ...v, id: rows.length + 1 })
        rows.push(created)
        return created
      },
      update: async (id, change) => {
        const index = rows.findIndex((r) => r.id === id)
        const { at: updatedAt, ...rest } = change
        rows[index] = { ...rows[index]!, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), updatedAt }
        return rows[index]!
      },
    },
    webhookEvents: {
      record: async (e: InboundEvent) => {
        const key = `${e.source}:${e.eventId}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      },
    },
    outbox: { enqueue: async (m) => void outbox.push(m) },
  }
  const identityProvider: IdentityProvider = {
    mode: 'offline',
    startCheck: async (a) => {
      checks.push(String(a.userId))
      return { reference: `ref_new_${checks.length}`, redirectUrl: null }
    },
  }
  const deps: VerificationDeps = {
    uow: { repos, run: (work) => work(repos) },
    identityProvider,
    secrets: { randomSuffix: (n) => 'x'.repeat(n) },
    clock: { now: () => at },
    config: { internalMailbox: 'staff@example.com' },
  }
  return { deps, repos, rows, outbox, checks }
}

describe('starting an identity check', () => {
  it('refuses anyone but a tutor before calling the provider', async () => {
    const { deps, checks } = fakes()
    for (const role of ['student', 'parent', 'internal'] as const) {
      expect((await startIdentityCheck(deps, user(7, role)))._unsafeUnwrapErr().type).toBe('Forbidden')
    }
    expect(checks).toEqual([])
  })

  it('answers a pending check without calling the provider again', async () => {
    const { deps, checks } = fakes({ rows: [record({ reference: 'ref_old' })] })
    const started = (await startIdentityCheck(deps, user(7, 'tutor')))._unsafeUnwrap()
    expect(started).toMatchObject({ created: false, record: { reference: 'ref_old' } })
    expect(checks).toEqual([])
  })

  it('answers the check of a concurrent request that recorded its own first', async () => {
    const { deps, rows } = fakes({ lockFirst: record({ reference: 'ref_winner' }) })
    const started = (await startIdentityCheck(deps, user(7, 'tutor')))._unsafeUnwrap()
    expect(started).toMatchObject({ created: false, record: { reference: 'ref_winner' } })
    expect(rows).toHaveLength(1)
  })

  it('refuses when a concurrent result passed the check meanwhile', async () => {
    const { deps, repos } = fakes({ rows: [record({ status: 'FAIL' })] })
    repos.verifications.lockByUserAndKind = async () => record({ status: 'PASS' })
    expect((await startIdentityCheck(deps, user(7, 'tutor')))._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
  })
})

describe('provider results', () => {
  it('changes once per event id and queues one email named by the event', async () => {
    const { deps, rows, outbox } = fakes({ rows: [record({})] })
    const event = { id: 'evt_1', type: 'check.completed', result: { reference: 'ref_1', status: 'PASS' as const } }
    expect((await recordProviderResult(deps, event))._unsafeUnwrap()).toEqual({ outcome: 'handled' })
    expect((await recordProviderResult(deps, event))._unsafeUnwrap()).toEqual({ outcome: 'duplicate' })
    expect(rows[0]!.status).toBe('PASS')
    expect(outbox).toEqual([
      expect.objectContaining({ kind: 'email', to: 'staff@example.com', dedupeKey: 'tutor_id_verification_status_updated:verification:evt_1' }),
    ])
  })
})

describe('internal review', () => {
  it('is for internal staff only', async () => {
    const { deps } = fakes({ rows: [record({ kind: 'dbs', documentFileId: 'f' })] })
    const result = await reviewVerification(deps, user(7, 'tutor'), { tutorId: 7, kind: 'dbs', status: 'PASS' })
    expect(result._unsafeUnwrapErr().type).toBe('Forbidden')
  })

  it('records who reviewed', async () => {
    const { deps, rows } = fakes({ rows: [record({ kind: 'dbs', documentFileId: 'f' })] })
    const result = await reviewVerification(deps, user(99, 'internal'), { tutorId: 7, kind: 'dbs', status: 'PASS' })
    expect(result._unsafeUnwrap()).toMatchObject({ status: 'PASS', reviewedBy: 99 })
    expect(rows[0]!.reviewedBy).toBe(99)
  })
})
