import path from "node:path";
import { fileURLToPath } from "node:url";

export const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OPENAPI_FILE = path.join(API_ROOT, "openapi.json");
