// A body that is not a readable form (JSON or text sent to a screen action, a multipart body with
// a missing or broken boundary) makes `request.formData()` throw a plain Error, which Remix
// answers with 500. Every action reads forms through this one method, so the parse error is
// turned here into the thrown 400 answer an action would give itself (README "Security").
const PATCHED = Symbol.for("timber.formDataErrors");

export function answerUnreadableForms(RequestClass: { prototype: Request } = globalThis.Request) {
  const proto = RequestClass.prototype as Request & { [PATCHED]?: boolean };
  if (proto[PATCHED]) return;
  const original = proto.formData;
  proto.formData = async function formData(this: Request) {
    try {
      return await original.call(this);
    } catch (error) {
      if (error instanceof Response) throw error;
      throw new Response(
        JSON.stringify({ error: "invalid_body", errors: { _: ["The body is not a readable form"] } }),
        { status: 400, headers: { "Content-Type": "application/json; charset=utf-8" } },
      );
    }
  };
  proto[PATCHED] = true;
}
