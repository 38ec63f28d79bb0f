import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/compose.ts";

// rehearse.sh runs each drill as a program: one committed without its executable mode ends as exit 126, and the
// drill it holds never runs (drills 10–13 did so once).
describe("the rehearsal's scripts", () => {
  it("are executable, every drill and every step rehearse.sh runs", () => {
    const folder = path.join(repoRoot, "packages", "deploy", "rehearsal");
    const scripts = [
      ...["rehearse.sh", "up.sh", "down.sh", "build-images.sh"].map((name) => path.join(folder, name)),
      ...readdirSync(path.join(folder, "drills")).filter((name) => /^\d+-.*\.sh$/.test(name)).map((name) => path.join(folder, "drills", name)),
    ];
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((file) => (statSync(file).mode & 0o111) === 0).map((file) => path.relative(repoRoot, file))).toEqual([]);
  });
});
