import { spawn } from "node:child_process";
import net from "node:net";

// Extra web processes (node server.js) with their own port and environment, for the shutdown
// and scale-out tests. Needs `npm run build`.

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function startWeb(env: Record<string, string>, name = "web") {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const child = spawn("node", ["server.js"], {
    env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString());
    if (process.env.TEST_APP_LOGS) process.stderr.write(`[${name} ${port}] ${chunk}`);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${logs.join("")}`);
    try {
      if ((await fetch(`${baseUrl}/healthcheck/live`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) throw new Error(`${name} did not start:\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    name,
    port,
    baseUrl,
    child,
    logs,
    exited,
    /** The JSON lines this process logged (requests, jobs, shutdown). */
    lines: () => jsonLines(logs),
    async kill(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
export type WebProcess = Awaited<ReturnType<typeof startWeb>>;

/** The JSON lines of any process's output. */
export function jsonLines(logs: string[]): Record<string, unknown>[] {
  return logs
    .join("")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}
