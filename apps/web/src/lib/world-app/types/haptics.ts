/** The moments a person feels in native apps: the slider reaching its end, a claim's success, an error. */
export type HapticMoment = "slide-complete" | "success" | "error";
