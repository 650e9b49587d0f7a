/** A FIFO lock: `acquire` resolves when every earlier holder has released. */
export class SerialMutex {
  #tail: Promise<void> = Promise.resolve()

  acquire(): Promise<() => void> {
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const ready = this.#tail.then(() => release)
    this.#tail = this.#tail.then(() => held)
    return ready
  }
}
