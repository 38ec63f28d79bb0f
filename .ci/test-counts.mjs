// What the test runners printed, read back: how many tests passed and failed, and the lines that name a failed test.
// One home for both readers of a suite's output: CI's closing summary (summarize.mjs) and the stress runs (stress.mjs).

/** Strips the terminal colours a runner may print despite NO_COLOR. */
export function plainText(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

/**
 * The passed and failed tests every runner reported in `text`: mocha/Hardhat ("N passing", "N failing"), vitest and
 * the journeys' summary reporter ("Tests  2 failed | 40 passed (42)"), node:test and the rehearsal ("# pass N").
 * A line may carry Turborepo's "<package>:<task>: " prefix.
 */
export function countTests(text) {
  let passed = 0;
  let failed = 0;
  for (const line of plainText(text).split("\n")) {
    let match;
    if ((match = /^(?:\S+:\s+)?\s*(\d+) passing\b/.exec(line))) passed += Number(match[1]);
    else if ((match = /^(?:\S+:\s+)?\s*(\d+) failing\b/.exec(line))) failed += Number(match[1]);
    else if ((match = /^(?:\S+:\s+)?\s*Tests\s+(.*)$/.exec(line))) {
      const failedMatch = /(\d+) failed/.exec(match[1]);
      const passedMatch = /(\d+) passed/.exec(match[1]);
      if (failedMatch) failed += Number(failedMatch[1]);
      if (passedMatch) passed += Number(passedMatch[1]);
    } else if ((match = /^(?:\S+:\s+)?# pass (\d+)$/.exec(line))) passed += Number(match[1]);
    else if ((match = /^(?:\S+:\s+)?# fail (\d+)$/.exec(line))) failed += Number(match[1]);
  }
  return { passed, failed };
}

/**
 * The lines that name a failed test, as their runners printed them (Playwright's ✘, vitest's × and FAIL, mocha's
 * numbered failures, the rehearsal's "not ok - <step>"), each once, in order.
 */
export function failureLines(text) {
  return [
    ...new Set(
      plainText(text)
        .split("\n")
        .filter((line) => /^(?:\S+:\s+)?\s*(?:✘|×|FAIL\s|\d+\) |not ok - )/.test(line))
        .map((line) => line.trimEnd()),
    ),
  ];
}
