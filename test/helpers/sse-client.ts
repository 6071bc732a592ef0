// A minimal text/event-stream reader over fetch, for tests: frames as they arrive, comments
// counted apart, and a way to wait for the stream's end.

export interface SseFrame {
  event?: string;
  id?: string;
  data?: string;
  retry?: string;
}

export interface SseStream {
  response: Response;
  /** The next frame with an event or data (retry lines and comments are kept apart). */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** The next `n` events, parsed from their data lines. */
  events(n: number, timeoutMs?: number): Promise<Array<{ type: string; id: number; at: string; data: Record<string, unknown> }>>;
  comments(): string[];
  retry(): string | undefined;
  /** Resolves when the server ends the stream (cleanly: true; cut: false). */
  ended: Promise<boolean>;
  close(): void;
}

export async function openSse(url: string, key: string | null, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  let retry: string | undefined;
  let wake = () => {};
  let buffer = "";
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!response.body) return true;
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          const frame = parseFrame(buffer.slice(0, at), comments);
          buffer = buffer.slice(at + 2);
          if (frame.retry !== undefined) retry = frame.retry;
          if (frame.event !== undefined || frame.data !== undefined) frames.push(frame);
        }
        wake();
      }
      return true;
    } catch {
      return false;
    } finally {
      wake();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  const next = async (timeoutMs = 5_000): Promise<SseFrame> => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length === 0) {
      if (done) throw new Error("the stream ended");
      if (Date.now() > deadline) throw new Error(`no event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return frames.shift()!;
  };
  return {
    response,
    next,
    events: async (n, timeoutMs) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(JSON.parse((await next(timeoutMs)).data ?? "null"));
      return out;
    },
    comments: () => comments,
    retry: () => retry,
    ended,
    close: () => abort.abort(),
  };
}

function parseFrame(block: string, comments: string[]): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comments.push(line.slice(1).trim());
    else {
      const colon = line.indexOf(":");
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, "");
      if (field === "event" || field === "id" || field === "data" || field === "retry") frame[field] = value;
    }
  }
  return frame;
}
