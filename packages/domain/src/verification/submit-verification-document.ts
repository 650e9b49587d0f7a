import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { User } from '../accounts'
import { storeUpload, type FilesDeps, type FilesRepos, type StoredFile, type StoreUploadError, type UploadInput } from '../files'
import type { Forbidden } from '../shared'
import type { VerificationDeps, VerificationRepos } from './ports'
import { tutorOnly } from './tutor-only'
import { queueVerificationEffects } from './verification-effects'
import { transitionVerification, type VerificationKind, type VerificationTransitionError } from './verification'
import { statusOf, storedStatus, type VerificationRecord } from './verification-record'

export const DOCUMENT_KINDS = ['dbs', 'qualification'] as const satisfies readonly VerificationKind[]
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

export type VerificationDocumentDeps = FilesDeps<FilesRepos & VerificationRepos> & Pick<VerificationDeps, 'secrets' | 'config'>

export type SubmitDocumentInput = {
  kind: DocumentKind
  upload: Omit<UploadInput, 'purpose' | 'accept'>
  /** DBS only: the certificate's details, as registration takes them. */
  certificate?: { number?: string; issueDate?: string }
}

export type SubmitDocumentError = Forbidden | StoreUploadError | VerificationTransitionError

/**
 * `POST /api/v1/verification/dbs` and `.../qualification`: the tutor's document (an image
 * or a PDF, read from the content) is stored through the files context and, in the same
 * transaction, becomes the verification's document with the status the machine gives a
 * submission (PENDING). A refused submission (already PASS or under review) is refused
 * before any byte is stored. A replaced document is deleted: only the current one is
 * reviewed, and a tutor's papers are not kept longer than needed.
 */
export function submitVerificationDocument(
  deps: VerificationDocumentDeps,
  actor: User,
  input: SubmitDocumentInput,
): ResultAsync<VerificationRecord, SubmitDocumentError> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(deps: VerificationDocumentDeps, actor: User, input: SubmitDocumentInput): Promise<Result<VerificationRecord, SubmitDocumentError>> {
  const tutor = tutorOnly(actor)
  if (tutor.isErr()) return err(tutor.error)
  const current = await deps.uow.repos.verifications.findByUserAndKind(actor.id, input.kind)
  const allowed = transitionVerification(statusOf(current), 'submit', { kind: input.kind, documentUploaded: true })
  if (allowed.isErr()) return err(allowed.error)

  const replaced: { storageKey?: string } = {}
  const stored = await storeUpload(deps, actor, {
    ...input.upload,
    purpose: input.kind,
    accept: ['image', 'document'],
    attach: (repos, file) => attachDocument(deps, repos, actor, input, file, replaced),
  })
  if (stored.isOk() && replaced.storageKey) await deps.storage.delete(replaced.storageKey)
  return stored
}

async function attachDocument(
  deps: VerificationDocumentDeps,
  repos: FilesRepos & VerificationRepos,
  actor: User,
  input: SubmitDocumentInput,
  file: StoredFile,
  replaced: { storageKey?: string },
): Promise<Result<VerificationRecord, VerificationTransitionError>> {
  const now = deps.clock.now()
  const certificate = {
    ...(input.certificate?.number !== undefined ? { certificateNumber: input.certificate.number } : {}),
    ...(input.certificate?.issueDate !== undefined ? { issueDate: input.certificate.issueDate } : {}),
  }
  // Two rounds at most: a concurrent first submission may insert the row between our read and insert.
  for (let round = 0; round < 2; round++) {
    const locked = await repos.verifications.lockByUserAndKind(actor.id, input.kind)
    const transition = transitionVerification(statusOf(locked), 'submit', { kind: input.kind, documentUploaded: true })
    if (transition.isErr()) return err(transition.error)
    const status = storedStatus(transition.value.to)
    let record: VerificationRecord | undefined
    if (locked) {
      record = await repos.verifications.update(locked.id, { status, documentFileId: file.id, reviewedBy: null, at: now, ...certificate })
      const previous = locked.documentFileId ? await repos.files.findById(locked.documentFileId) : undefined
      if (previous) {
        await repos.files.softDelete(previous.id, now)
        replaced.storageKey = previous.storageKey
      }
    } else {
      const reference = `${input.kind}_${deps.secrets.randomSuffix(16)}`
      record = await repos.verifications.insert({ userId: actor.id, kind: input.kind, status, reference, redirectUrl: null, documentFileId: file.id, ...certificate })
    }
    if (record) {
      await queueVerificationEffects(repos.outbox, transition.value.effects, {
        record,
        previous: statusOf(locked),
        tutor: actor,
        cause: `submit:${file.id}`,
        internalMailbox: deps.config.internalMailbox,
      })
      return ok(record)
    }
  }
  throw new Error(`could not record the ${input.kind} document of user ${actor.id}`)
}
