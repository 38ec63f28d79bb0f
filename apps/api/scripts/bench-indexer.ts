// The benchmarks' stand-in for the indexer (bench-support.ts fakeIndexer) as a process of its own, on the port given
// as its argument: in the bench's process it would answer only when autocannon's event loop let it.
import { fakeIndexer } from "./bench-support.js";

fakeIndexer().listen(Number(process.argv[2] ?? 0), "127.0.0.1");
