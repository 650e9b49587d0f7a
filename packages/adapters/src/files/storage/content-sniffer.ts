import { fileTypeFromBuffer } from 'file-type'
import type { ContentSniffer } from '@tutoring/domain/files'

/** `file-type` reads magic numbers; 4100 bytes is the sample its own stream detection takes. */
export const fileTypeSniffer: ContentSniffer = {
  headBytes: 4100,
  detect: async (head) => (await fileTypeFromBuffer(head))?.mime,
}
