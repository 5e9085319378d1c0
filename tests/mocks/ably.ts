import { http, HttpResponse } from "msw";

// Ably's REST API as the server uses it: publishing a message to a channel.
export type AblyPublished = { channel: string; body: unknown; authorization: string | null };

export function ablyHandlers(published: AblyPublished[]) {
  return [
    http.post("https://*/channels/:channel/messages", async ({ request, params }) => {
      published.push({
        channel: decodeURIComponent(String(params.channel)),
        body: await request.json(),
        authorization: request.headers.get("authorization"),
      });
      return HttpResponse.json({ channel: params.channel, messageId: "msg-1" }, { status: 201 });
    }),
  ];
}
