// The shared type-aware configuration, plus React's rules of hooks for the web app.
import reactHooks from "eslint-plugin-react-hooks";
import root from "../../eslint.config.mjs";

export default [
  ...root,
  {
    files: ["**/*.ts", "**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // alert(), confirm() and prompt() do not work in World App on iOS (World's mini-app guidelines): modals instead.
      "no-alert": "error",
    },
  },
];
