import { spawn, type ChildProcess, execSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import type { TestProject } from "vitest/node";

// Starts the built web server and the job worker against the run's own databases, as production
// runs them (node server.js, node build/worker.js). Needs `npm run build` (scripts/test.sh does it).

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitFor(url: string, child: ChildProcess, logs: string[], timeoutMs = 30_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join("")}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not answer ${url} in time:\n${logs.join("")}`);
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, name: string) {
  const logs: string[] = [];
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString());
    if (process.env.TEST_APP_LOGS) process.stderr.write(`[${name}] ${chunk}`);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return { child, logs };
}

export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/index.js") || !fs.existsSync("build/worker.js")) {
    execSync("npm run build", { stdio: "inherit" });
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databases = project.getProvidedContext().databases;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databases.mysqlUrl,
    JOBS_DATABASE_URL: databases.jobsUrl,
    STORAGE_DIR: databases.storageDir,
    SESSION_SECRET: databases.sessionSecret,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    WORKER_CONCURRENCY: "2",
    // No outside network in tests: the map draws its markers without a tile server, and no page
    // load waits on a tile host that a CI machine may not resolve quickly.
    MAP_TILE_URL: "none",
  };
  const web = start("node", ["server.js"], env, "web");
  const worker = start("node", ["build/worker.js"], env, "worker");
  await waitFor(`${baseUrl}/healthcheck`, web.child, web.logs);
  project.provide("app", { baseUrl });

  return async () => {
    for (const p of [worker.child, web.child]) p.kill("SIGTERM");
    await Promise.all(
      [worker.child, web.child].map(
        (p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : p.once("exit", resolve))),
      ),
    );
    fs.rmSync(env.STORAGE_DIR!, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    app: { baseUrl: string };
  }
}
