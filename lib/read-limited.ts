import "server-only";

/**
 * Reads a byte stream as UTF-8 text, giving up (with the caller's error, after cancelling the stream) as soon as it
 * passes `maxBytes`, chunked or not: memory stays bounded whatever the other side sends.
 */
export async function readTextLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
