import { openApiDocument } from "~/services/openapi.server";
import { methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/docs: the OpenAPI document as a page integrators can read without tools: every
 * operation with its summary, route file, and its request body's JSON Schema and example.
 */
export function loader() {
  const doc = openApiDocument() as {
    info: { title: string; description: string };
    paths: Record<
      string,
      Record<
        string,
        { summary: string; requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> } }
      >
    >;
    components: { schemas: Record<string, unknown> };
  };
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody ? Object.entries(op.requestBody.content)[0] : null;
      return `<section id="${esc(`${method}-${path}`)}"><h2><code>${method.toUpperCase()} ${esc(path)}</code></h2><p>${esc(op.summary)}</p>${
        body
          ? `<p>Body (${esc(body[0])}): <code>${esc(JSON.stringify(body[1].schema))}</code></p>${
              body[1].example === undefined
                ? ""
                : `<p>Example:</p><pre>${esc(JSON.stringify(body[1].example, null, 2))}</pre>`
            }`
          : ""
      }</section>`;
    }),
  );
  const schemas = Object.entries(doc.components.schemas)
    .map(
      ([name, s]) =>
        `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3><pre>${esc(JSON.stringify(s, null, 2))}</pre></section>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(doc.info.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;line-height:1.4}pre{background:#f4f4f4;padding:.75rem;overflow:auto}section{border-top:1px solid #ddd;padding:.5rem 0}</style></head><body><h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>${ops.join("")}<h2>Schemas</h2>${schemas}</body></html>`;
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}

export function action() {
  return methodNotAllowed();
}
