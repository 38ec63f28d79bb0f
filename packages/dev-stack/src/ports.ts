import net from "node:net";

/** Ports this process has handed out: the OS may pick a closed port again at once, and two services would clash. */
const handedOut = new Set<number>();

/**
 * A port that was free a moment ago (the OS picks it), for a server we are about to start; never one this
 * process handed out before.
 */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const port = await pickPort(host);
    if (!handedOut.has(port) || attempt >= 20) {
      handedOut.add(port);
      return port;
    }
  }
}

function pickPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not read the port the OS picked"));
      });
    });
  });
}

/** Whether a server could listen on `port` right now. */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
