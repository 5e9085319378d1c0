/** A plain HTML form post (a screen working without JavaScript), as opposed to a JSON API call. */
export function isFormPost(request: Request) {
  const type = request.headers.get("Content-Type") ?? "";
  return (
    request.method === "POST" &&
    (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data"))
  );
}
