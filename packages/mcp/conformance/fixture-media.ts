/** Tiny media the conformance fixture returns (a 1×1 red PNG, a silent WAV). */

/** A 1×1 red pixel PNG, base64. */
export const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV file of one silent sample, built rather than pasted. */
export const SILENT_WAV = (() => {
  const bytes = Buffer.alloc(46);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(38, 4);
  bytes.write('WAVEfmt ', 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22); // mono
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(16000, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36);
  bytes.writeUInt32LE(2, 40);
  return bytes.toString('base64');
})();

/** Base64 of a UTF-8 string. */
export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Resolves after `ms` (the suite's logging and progress tools space their messages). */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
