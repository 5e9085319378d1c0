import { useEffect, useRef } from "react";

// The browser side of realtime: one hook, whichever adapter the server runs.
declare global {
  interface Window {
    ENV: { REALTIME: "ably" | "sse"; MAP_TILE_URL: string; MAP_TILE_ATTRIBUTION: string };
  }
}

type Handler = (data: unknown) => void;
type Source = { subscribe(event: string, handler: Handler): () => void };

const sseSources = new Map<string, { source: EventSource; users: number }>();

function sseChannel(channel: string): Source {
  return {
    subscribe(event, handler) {
      let entry = sseSources.get(channel);
      if (!entry) {
        entry = { source: new EventSource(`/realtime?channel=${encodeURIComponent(channel)}`), users: 0 };
        sseSources.set(channel, entry);
      }
      entry.users += 1;
      const listener = (e: MessageEvent) => handler(JSON.parse(e.data));
      entry.source.addEventListener(event, listener);
      const current = entry;
      return () => {
        current.source.removeEventListener(event, listener);
        current.users -= 1;
        if (current.users === 0) {
          current.source.close();
          sseSources.delete(channel);
        }
      };
    },
  };
}

let ablyClient: Promise<import("ably").Realtime> | undefined;
function ablyChannel(channel: string): Source {
  return {
    subscribe(event, handler) {
      let cancelled = false;
      let stop = () => {};
      ablyClient ??= import("ably").then((Ably) => new Ably.Realtime({ authUrl: "/api/web_app/realtime/token" }));
      void ablyClient.then((client) => {
        if (cancelled) return;
        const ch = client.channels.get(channel);
        const listener = (m: { data?: unknown }) => handler(m.data);
        void ch.subscribe(event, listener);
        stop = () => ch.unsubscribe(event, listener);
      });
      return () => {
        cancelled = true;
        stop();
      };
    },
  };
}

/** Calls `handler` for each `event` published on `channel` (null: subscribe to nothing). */
export function useRealtime(channel: string | null, event: string, handler: Handler) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!channel) return;
    const source = window.ENV?.REALTIME === "ably" ? ablyChannel(channel) : sseChannel(channel);
    return source.subscribe(event, (data) => ref.current(data));
  }, [channel, event]);
}
