import { describe, expect, it } from 'vitest'
import { SAMPLES, SAMPLE_TYPES } from '../../testing/media-samples'
import { fileTypeSniffer } from './content-sniffer'

describe('content sniffer', () => {
  it.each(Object.entries(SAMPLE_TYPES))('reads %s from its bytes', async (kind, mime) => {
    expect(await fileTypeSniffer.detect(SAMPLES[kind as keyof typeof SAMPLE_TYPES])).toBe(mime)
  })

  it('knows no type for plain text, and names other formats for what they are', async () => {
    expect(await fileTypeSniffer.detect(SAMPLES.text)).toBeUndefined()
    expect(await fileTypeSniffer.detect(new Uint8Array())).toBeUndefined()
    expect(await fileTypeSniffer.detect(SAMPLES.gif)).toBe('image/gif')
  })
})
