import { readFileSync } from "node:fs";
import { join } from "node:path";
import { API_ERROR_CODES } from "@oro/clients";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../src/i18n/languages";
import { ApiRequestError } from "../src/lib/api";
import { API_ERROR_MESSAGES, apiErrorMessageKey } from "../src/lib/api-errors";

const screens = (language: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, "..", "src", "i18n", "screens", `${language}.json`), "utf8"));
const lookUp = (tree: unknown, key: string): unknown =>
  key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), tree);

describe("the web's error catalogue", () => {
  it("places every code of the API's list, and no other", () => {
    const missing = API_ERROR_CODES.filter((code) => !Object.hasOwn(API_ERROR_MESSAGES, code));
    expect(missing).toEqual([]);
    expect(Object.keys(API_ERROR_MESSAGES).sort()).toEqual([...API_ERROR_CODES].sort());
  });

  it("names texts that every language has", () => {
    const keys = Object.values(API_ERROR_MESSAGES).filter((key) => key !== null);
    expect(keys.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) {
      const tree = screens(language);
      for (const key of keys) expect(typeof lookUp(tree, key), `${language}: ${key}`).toBe("string");
    }
  });

  it("gives an API refusal its text, and nothing for a code it has no words for or another kind of error", () => {
    expect(apiErrorMessageKey(new ApiRequestError(409, "POLL_CLOSED", "closed"))).toBe("polls.errors.POLL_CLOSED");
    expect(apiErrorMessageKey(new ApiRequestError(500, "INTERNAL_ERROR", "boom"))).toBeNull();
    expect(apiErrorMessageKey(new ApiRequestError(502, "HTTP_ERROR", "bad gateway"))).toBeNull();
    expect(apiErrorMessageKey(new Error("POLL_CLOSED"))).toBeNull();
  });
});
