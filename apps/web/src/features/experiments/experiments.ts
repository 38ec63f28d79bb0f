/**
 * The A/B experiments of the app. Each has a number (its name in analytics and in the cookie), is off unless
 * an operator switches it on (env.ts, VITE_EXPERIMENTS), and puts a share `threshold` of users in its variant.
 */
export interface Experiment {
  /** The experiment's number. */
  id: number;
  /** The share of users who get the variant (0..1). */
  threshold: number;
  /** On unless configuration says otherwise. */
  onByDefault: boolean;
  /** How long a user keeps their assignment, in days (the cookie's lifetime). */
  cookieDays: number;
}

export const EXPERIMENTS = {
  /** The apps directory as a grid of tiles (variant) instead of a list (control). */
  appsPage: { id: 2, threshold: 0.1, onByDefault: false, cookieDays: 7 },
} as const satisfies Record<string, Experiment>;

export type ExperimentName = keyof typeof EXPERIMENTS;

/** What a user sees: the control (the page as it is) or the variant under test. */
export type Variant = "control" | "variant";
