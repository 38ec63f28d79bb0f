import { confirmSheet } from "./confirm-sheet.js";
import { wireControls } from "./controls.js";
import { renderPanel } from "./panel.js";
import { refreshReminders } from "./reminders.js";
import { simulatorUi } from "./simulator-ui.js";
import type { UiPieces } from "./views.js";

/**
 * The simulator page's script (GET /__simulator/ui.js): `simulatorUi` run with its pieces, each served as its own
 * source text, so none of them may use anything outside its own body (the page hands each what it needs).
 */
export function simulatorScript(): string {
  const pieces: UiPieces = { renderPanel, refreshReminders, confirmSheet, wireControls };
  const served = (Object.keys(pieces) as (keyof UiPieces)[]).map((name) => `${name}: ${pieces[name].toString()}`);
  return `(${simulatorUi.toString()})({ ${served.join(", ")} });\n`;
}
