import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { workspacePaths } from "@oro/dev-stack";

export type Catalogue = { [key: string]: string | Catalogue };

/**
 * The web app's translation catalogue of one language, as shipped: apps/web/src/i18n/<lang>.json and, when the
 * app has it, the strings of its other screens (src/i18n/screens/<lang>.json), merged.
 */
export function catalogue(language: string): Catalogue {
  const dir = path.join(workspacePaths().web, "src", "i18n");
  const read = (file: string) => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Catalogue) : {});
  return { ...read(path.join(dir, "screens", `${language}.json`)), ...read(path.join(dir, `${language}.json`)) };
}

/** Every string of a catalogue, with its key (`claim.slide`). */
export function entries(tree: Catalogue, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] =>
    typeof value === "string" ? [[`${prefix}${key}`, value]] : entries(value, `${prefix}${key}.`),
  );
}

export function text(tree: Catalogue, key: string): string {
  const found = entries(tree).find(([name]) => name === key);
  if (!found) throw new Error(`no ${key} in the catalogue`);
  return found[1];
}

/** The product's eight UI languages (the web app's catalogues), from their one home. */
export { LANGUAGES } from "@oro/clients";

/** The fixed part of a message before its first placeholder ("New: {{name}}" → "New: "). */
export function stem(message: string): string {
  return message.split("{{")[0] ?? message;
}
