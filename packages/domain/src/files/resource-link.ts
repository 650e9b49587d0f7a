import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { actsFor, notFound, type NotFound, type Actor } from '../shared'
import type { FilesDeps, MediaSource } from './ports'

export const RESOURCE_KINDS = ['profile-image', 'profile-video', 'dbs-image', 'qualification-image'] as const
export type ResourceKind = (typeof RESOURCE_KINDS)[number]

const MINUTE = 60
const DAY = 86_400

/**
 * SPEC.md "Limits": signed links live 5 minutes, profile videos 5 days. DBS and
 * qualification documents are private: their owner and internal staff only.
 */
export const RESOURCES: Readonly<Record<ResourceKind, { source: MediaSource; lifetimeSeconds: number; private: boolean }>> = {
  'profile-image': { source: 'profile_picture', lifetimeSeconds: 5 * MINUTE, private: false },
  'profile-video': { source: 'profile_video', lifetimeSeconds: 5 * DAY, private: false },
  'dbs-image': { source: 'dbs', lifetimeSeconds: 5 * MINUTE, private: true },
  'qualification-image': { source: 'qualification', lifetimeSeconds: 5 * MINUTE, private: true },
}

export type ResourceLink = { url: string; expiresInSeconds: number }

/** A short-lived link to a user's resource; whoever may not see it is told it does not exist. */
export function resourceLink(
  deps: Pick<FilesDeps, 'uow' | 'storage'>,
  actor: Actor | undefined,
  input: { kind: ResourceKind; userId: number },
): ResultAsync<ResourceLink, NotFound> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(
  deps: Pick<FilesDeps, 'uow' | 'storage'>,
  actor: Actor | undefined,
  input: { kind: ResourceKind; userId: number },
): Promise<Result<ResourceLink, NotFound>> {
  const resource = RESOURCES[input.kind]
  if (resource.private && !(actor && actsFor(actor, input.userId))) return err(notFound('resource'))
  const file = await deps.uow.repos.media.findSourceFile(input.userId, resource.source)
  if (!file) return err(notFound('resource'))
  const url = await deps.storage.signedUrl(file.storageKey, { expiresInSeconds: resource.lifetimeSeconds })
  return ok({ url, expiresInSeconds: resource.lifetimeSeconds })
}
