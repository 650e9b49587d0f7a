import { describe, expect, it } from 'vitest'
import { isGeneratedFrom } from './pick-username'

describe('a generated username', () => {
  it('is the wanted handle, a dot and four letters or digits', () => {
    expect(isGeneratedFrom('ada.lovelace.x4k2', 'ada.lovelace')).toBe(true)
    expect(isGeneratedFrom('Ada.Lovelace.X4K2', 'ada.lovelace')).toBe(false)
    expect(isGeneratedFrom('ada.lovelace.x4k', 'ada.lovelace')).toBe(false)
    expect(isGeneratedFrom('ada.lovelace.x4k2z', 'ada.lovelace')).toBe(false)
    expect(isGeneratedFrom('ada.lovelace.x4-2', 'ada.lovelace')).toBe(false)
    expect(isGeneratedFrom('ada.lovelacex.4k2z', 'ada.lovelace')).toBe(false)
    expect(isGeneratedFrom('ada.lovelace.x4k2', 'ada.love')).toBe(false)
  })
})
