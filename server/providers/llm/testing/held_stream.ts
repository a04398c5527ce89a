/**
 * A response body of `frames` for the fakes: it may stop early without an end (`closeAfter`), or go silent after
 * some frames and stay open until the client cancels it (`hangAfter`), which `gone` then reports.
 */
export function heldStream(
  frames: Uint8Array[],
  options: { hangAfter?: number; closeAfter?: number; gone?: () => void },
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index === options.closeAfter || index >= frames.length) return controller.close();
      // Silent from here: no more pulls answered, so the stream stays open until cancelled.
      if (index === options.hangAfter) return new Promise<void>(() => {});
      controller.enqueue(frames[index++]);
    },
    cancel() {
      options.gone?.();
    },
  });
}
