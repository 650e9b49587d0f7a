import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../db/connect'
import { outboxQueue, outboxWriter } from './outbox.repository'
import { createLogger } from '../logger'
import { folderMailer, smtpMailer, type MailMessage, type Mailer } from '../mail'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { deliverDueOutbox, OUTBOX_FAILING_AFTER_ATTEMPTS, type OutboxWorkerDeps } from './outbox-worker'

const FROM = 'Tutoring Marketplace <no-reply@tutoring.local>'
const logger = createLogger('silent')
const noPush = { send: async () => undefined }

type Sent = MailMessage & { messageId: string }

/** A mailer that records what it is given and fails while `failing` is set. */
function recordingMailer(options: { delayMs?: number } = {}) {
  const sent: Sent[] = []
  const state = { failing: false }
  const mailer: Mailer = {
    kind: 'folder',
    async send(message) {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
      if (state.failing) throw new Error('mail relay refused the connection')
      sent.push(message)
    },
    close: () => undefined,
  }
  return { mailer, sent, state }
}

/** Receives mail on a free local port, as a relay would. */
async function startSmtpServer() {
  const received: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'))
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(testDatabaseKinds())('outbox delivery on %s', (kind) => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
  })
  afterAll(() => handle.close())
  beforeEach(async () => {
    await handle.db.deleteFrom('outbox').execute()
  })

  const queue = (now: () => Date = () => new Date()) => outboxQueue(handle.db, now)
  const email = (to: string, template = 'verify_email') => ({ kind: 'email' as const, template, to, data: { firstname: 'Ada', verifyUrl: 'http://api.test/verify?x=1' } })
  // Queued on the system clock; the worker's clock starts a second later, where it is due.
  const enqueueEmail = (to: string, template = 'verify_email') => outboxWriter(handle.db, () => new Date()).enqueue(email(to, template))
  const deps = (mailer: Mailer, now: () => Date = () => new Date(Date.now() + 1000)): OutboxWorkerDeps => ({
    queue: queue(now),
    mailer,
    push: noPush,
    processorSync: {},
    logger,
    internalMailbox: 'staff@tutoring.test',
    now,
  })
  const startOfTest = () => new Date(Date.now() + 1000)

  describe('by SMTP', () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    beforeAll(async () => {
      smtp = await startSmtpServer()
    })
    afterAll(() => smtp.close())

    it('hands the rendered email to the relay with a stable Message-ID and marks it delivered', async () => {
      await enqueueEmail('ada@example.com')
      const mailer = smtpMailer(smtp.url, FROM)
      try {
        expect(await deliverDueOutbox(deps(mailer))).toEqual({ delivered: 1, failed: 0 })
      } finally {
        mailer.close()
      }
      const [row] = await queue().list()
      expect(row!.delivered_at).toBeInstanceOf(Date)
      const mail = smtp.received.at(-1)!
      expect(mail).toMatch(/^To: ada@example\.com$/m)
      expect(mail).toMatch(/^From: Tutoring Marketplace <no-reply@tutoring\.local>$/m)
      expect(mail).toMatch(/^Subject: Confirm your email address$/m)
      expect(mail).toContain(`Message-ID: <outbox-${row!.id}@tutoring.local>`)
      expect(mail).toContain('http://api.test/verify?x=1')
    })

    it('keeps the email for a retry when the relay is unreachable', async () => {
      await enqueueEmail('later@example.com')
      const mailer = smtpMailer('smtp://127.0.0.1:1', FROM)
      try {
        expect(await deliverDueOutbox(deps(mailer))).toEqual({ delivered: 0, failed: 1 })
      } finally {
        mailer.close()
      }
      const [row] = await queue().list()
      expect(row).toMatchObject({ delivered_at: null, failed_at: null, attempts: 1 })
      expect(row!.last_error).toBeTruthy()
    })
  })

  describe('into the mail folder', () => {
    let dir: string
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'tutoring-mail-'))
    })
    afterEach(() => rm(dir, { recursive: true, force: true }))

    it('writes one .eml file per email', async () => {
      for (const to of ['one@example.com', 'two@example.com', 'three@example.com']) await enqueueEmail(to)
      const mailer = folderMailer(dir, FROM)
      expect(await deliverDueOutbox(deps(mailer))).toEqual({ delivered: 3, failed: 0 })
      const files = (await readdir(dir)).sort()
      expect(files).toHaveLength(3)
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true)
      const bodies = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')))
      for (const to of ['one@example.com', 'two@example.com', 'three@example.com']) {
        expect(bodies.filter((b) => new RegExp(`^To: ${to.replace('.', '\\.')}$`, 'm').test(b))).toHaveLength(1)
      }
      expect(bodies.every((b) => /^Subject: Confirm your email address$/m.test(b))).toBe(true)
      expect(await deliverDueOutbox(deps(mailer))).toEqual({ delivered: 0, failed: 0 })
      expect(await readdir(dir)).toHaveLength(3)
    })

    it('keeps one copy of a message sent again (a worker killed before recording the delivery)', async () => {
      const mailer = folderMailer(dir, FROM)
      const message = { to: 'again@example.com', subject: 'Twice', text: 'once is enough', html: '<p>once is enough</p>', messageId: '<outbox-7@tutoring.local>' }
      await mailer.send(message)
      await mailer.send({ ...message, text: 'the retry' })
      const files = await readdir(dir)
      expect(files).toEqual(['_outbox-7_tutoring.local_.eml'])
      expect(await readFile(path.join(dir, files[0]!), 'utf8')).toContain('the retry')
    })
  })

  describe('when delivery fails', () => {
    it('retries with a growing delay and delivers once the mailer works again', async () => {
      let now = startOfTest()
      const clock = () => now
      const later = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000))
      const { mailer, sent, state } = recordingMailer()
      state.failing = true
      await enqueueEmail('retry@example.com')

      expect(await deliverDueOutbox(deps(mailer, clock))).toEqual({ delivered: 0, failed: 1 })
      let [row] = await queue().list()
      expect(row!.attempts).toBe(1)
      expect(row!.last_error).toBe('mail relay refused the connection')
      expect(row!.available_at.getTime() - now.getTime()).toBe(30_000)

      later(29)
      expect(await deliverDueOutbox(deps(mailer, clock))).toEqual({ delivered: 0, failed: 0 })
      later(1)
      expect(await deliverDueOutbox(deps(mailer, clock))).toEqual({ delivered: 0, failed: 1 })
      ;[row] = await queue().list()
      expect(row!.attempts).toBe(2)
      expect(row!.available_at.getTime() - now.getTime()).toBe(60_000)

      state.failing = false
      later(60)
      expect(await deliverDueOutbox(deps(mailer, clock))).toEqual({ delivered: 1, failed: 0 })
      ;[row] = await queue().list()
      expect(row!.delivered_at).toEqual(now)
      expect(row!.last_error).toBeNull()
      expect(sent.map((m) => m.to)).toEqual(['retry@example.com'])
    })

    it('never gives up: after 15 failures the message is still queued, marked failing, staff told once, and delivered once the relay recovers', async () => {
      let now = startOfTest()
      const { mailer, sent, state } = recordingMailer()
      state.failing = true
      await enqueueEmail('never@example.com')
      const id = (await queue().list())[0]!.id
      const gaps: number[] = []
      for (let attempt = 1; attempt <= 15; attempt++) {
        // From the threshold on, the staff alert is queued beside it (and fails too while mail is down).
        expect((await deliverDueOutbox(deps(mailer, () => now))).failed).toBeGreaterThanOrEqual(1)
        const row = (await queue().list()).find((r) => r.id === id)!
        expect(row).toMatchObject({ attempts: attempt, delivered_at: null, last_error: 'mail relay refused the connection' })
        expect(row.failed_at === null).toBe(attempt < OUTBOX_FAILING_AFTER_ATTEMPTS)
        gaps.push(row.available_at.getTime() - now.getTime())
        now = row.available_at
      }
      // Exponential, then capped at six hours.
      expect(gaps.slice(0, 3)).toEqual([30_000, 60_000, 120_000])
      expect(Math.max(...gaps)).toBe(6 * 3600_000)
      const failing = await queue().listFailing()
      expect(failing.map((r) => r.id)).toContain(id)
      const alerts = (await queue().list({ kind: 'email', topic: 'outbox_failing' }))
      expect(alerts).toHaveLength(1)
      expect(alerts[0]!.payload).toMatchObject({ to: 'staff@tutoring.test', data: { outboxId: id, attempts: OUTBOX_FAILING_AFTER_ATTEMPTS } })

      state.failing = false
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 2, failed: 0 })
      expect(sent.filter((m) => m.to === 'never@example.com')).toHaveLength(1)
      expect(await deliverDueOutbox(deps(mailer, () => new Date(now.getTime() + 7 * 3600_000)))).toEqual({ delivered: 0, failed: 0 })
      expect(await queue().listFailing()).toEqual([])
    })

    it('redrives failing messages now, one by id or all of them', async () => {
      const now = startOfTest()
      const { mailer, state } = recordingMailer()
      state.failing = true
      await enqueueEmail('one@example.com')
      await enqueueEmail('two@example.com')
      const ids = (await queue().list()).map((r) => r.id)
      await handle.db.updateTable('outbox').set({ failed_at: now, attempts: 12 }).execute()
      await deliverDueOutbox(deps(mailer, () => now))
      state.failing = false
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 0, failed: 0 })
      expect(await queue().redrive({ ids: [ids[0]!] }, now)).toEqual([ids[0]])
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 1, failed: 0 })
      // Already marked failing before: no second staff alert was queued.
      expect(await queue().redrive('all-failing', now)).toHaveLength(1)
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 1, failed: 0 })
      expect(await queue().listFailing()).toEqual([])
    })

    it('a worker that dies mid-delivery leaves the item to be claimed again after the lease', async () => {
      let now = startOfTest()
      await enqueueEmail('orphan@example.com')
      const claimed = await queue().claimDue(now, 10, 120)
      expect(claimed).toHaveLength(1)
      const { mailer, sent } = recordingMailer()
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 0, failed: 0 })
      now = new Date(now.getTime() + 121_000)
      expect(await deliverDueOutbox(deps(mailer, () => now))).toEqual({ delivered: 1, failed: 0 })
      expect(sent.map((m) => m.to)).toEqual(['orphan@example.com'])
    })
  })

  describe("on the service's clock, whatever the database's", () => {
    it('delivers on the next drain what an instance whose clock is an hour behind the database just queued', async () => {
      // An instance an hour behind: the database's own time would make the row due only in an hour.
      const behind = new Date(Date.now() - 3600_000)
      const { mailer, sent } = recordingMailer()
      await outboxWriter(handle.db, () => behind).enqueue(email('behind@example.com'))
      await queue(() => behind).enqueue(email('alert@example.com', 'outbox_failing'))
      expect(await deliverDueOutbox(deps(mailer, () => behind))).toEqual({ delivered: 2, failed: 0 })
      expect(sent.map((m) => m.to)).toEqual(['behind@example.com', 'alert@example.com'])
      expect((await queue().list()).map((r) => r.delivered_at)).toEqual([behind, behind])
    })
  })

  describe('with two workers at once', () => {
    it('delivers every item exactly once', async () => {
      const count = 40
      for (let i = 0; i < count; i++) await enqueueEmail(`user${i}@example.com`)
      const { mailer, sent } = recordingMailer({ delayMs: 2 })
      const worker = async () => {
        let total = 0
        for (;;) {
          // Small batches, so the two workers interleave many times.
          const { delivered, failed } = await deliverDueOutbox(deps(mailer), 3)
          if (delivered + failed === 0) return total
          total += delivered
        }
      }
      const [a, b] = await Promise.all([worker(), worker()])
      expect(a + b).toBe(count)
      const ids = sent.map((m) => m.messageId)
      expect(new Set(ids).size).toBe(count)
      expect(ids).toHaveLength(count)
      const rows = await queue().list()
      expect(rows.every((r) => r.delivered_at !== null && r.attempts === 1)).toBe(true)
      if (kind === 'postgres') expect(a > 0 && b > 0).toBe(true)
    })
  })
})
