import { spawn, type ChildProcess } from "node:child_process";

/** An extra worker process (node build/worker.js) with its own environment, for crash tests. */
export function startWorker(env: Record<string, string>) {
  const logs: string[] = [];
  const child: ChildProcess = spawn("node", ["build/worker.js"], {
    env: { ...process.env, ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString());
    if (process.env.TEST_APP_LOGS) process.stderr.write(`[extra-worker ${child.pid}] ${chunk}`);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    logs,
    exited,
    async kill(signal: NodeJS.Signals) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
