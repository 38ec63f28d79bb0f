/** The screens that load on demand read their own namespace first, then the app's (common words, the header's). */
export const SCREEN_NAMESPACES = ["screens", "translation"] as const;
