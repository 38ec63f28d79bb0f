// The benchmark's reference (shared/TARGETS.md): a bare Fastify route returning a constant, on the port given as its argument.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", () => ({ status: "ok" }));
await app.listen({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) });
