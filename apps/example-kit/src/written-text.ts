import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * A stream that keeps everything written to it, for tests of what an app prints. Tests
 * read {@link WrittenText.text}, never a stream's chunks: how writes are split or merged
 * into chunks is the runtime's business (on Node 26 a `PassThrough`'s `read()` returns
 * only the first chunk written, on Node 20 all of them joined).
 */
export class WrittenText extends Writable {
  #text = '';
  readonly #decoder = new StringDecoder('utf8');

  /** Everything written so far, in order. */
  text(): string {
    return this.#text;
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    // A multi-byte character split across two writes is joined by the decoder.
    this.#text += this.#decoder.write(chunk);
    callback();
  }
}
