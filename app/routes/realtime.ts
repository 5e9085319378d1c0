import { allowedChannels, subscribe } from "~/services/realtime.server";
import { requireApiUser } from "~/utils/auth.server";
import { notFound } from "~/utils/errors";
import type { LoaderFunctionArgs } from "@remix-run/node";

// The built-in realtime adapter: Server-Sent Events for one channel the user may read.
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const channel = new URL(request.url).searchParams.get("channel") ?? "";
  if (!allowedChannels(ctx).includes(channel)) notFound();

  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = await subscribe(channel, (m) =>
        send(`event: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`),
      );
      // A comment line every 25 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": ping\n\n"), 25_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      send(`retry: 3000\nevent: ready\ndata: {}\n\n`);
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
