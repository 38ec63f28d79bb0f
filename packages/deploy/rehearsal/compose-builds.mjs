// Reads `docker-compose config` (the resolved compose files, YAML) on stdin and prints one line per image to build:
// "<service> <target> <image> <ARG=value>…", as `docker compose build` would build it. For build-images.sh.
import { parse } from "yaml";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const { services } = parse(text);
for (const [name, service] of Object.entries(services ?? {})) {
  if (!service.build) continue;
  const args = Object.entries(service.build.args ?? {}).map(([key, value]) => {
    if (/\s/.test(String(value ?? ""))) throw new Error(`${name}: build argument ${key} holds a space`);
    return `${key}=${value ?? ""}`;
  });
  console.log([name, service.build.target, service.image, ...args].join(" "));
}
