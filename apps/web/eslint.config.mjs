// The shared type-aware configuration, plus React's rules of hooks and the web app's own boundaries.
import { dirname, relative, resolve } from "node:path";
import reactHooks from "eslint-plugin-react-hooks";
import root from "../../eslint.config.mjs";

const featuresDir = resolve(import.meta.dirname, "src/features");
const routesDir = resolve(import.meta.dirname, "src/routes");

/** The literal of an import, export-from or import(), if the node is one. */
function importSource(node) {
  return node.source?.type === "Literal" && typeof node.source.value === "string" ? node.source : null;
}

/** Reports each import, export-from and import() whose source `check` refuses (returns a message for). */
function importRule(description, check) {
  return {
    meta: { type: "problem", docs: { description }, schema: [] },
    create(context) {
      const visit = (node) => {
        const source = importSource(node);
        const message = source && check(source.value, context.filename);
        if (message) context.report({ node: source, message });
      };
      return { ImportDeclaration: visit, ImportExpression: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
    },
  };
}

/** The conventions of CONVENTIONS.md that a machine can check, as rules rather than review. */
const boundaries = {
  rules: {
    "env-only-in-env-ts": {
      meta: { type: "problem", docs: { description: "import.meta.env and process.env are read in src/env.ts only" }, schema: [] },
      create(context) {
        const report = (node, name) =>
          context.report({ node, message: `${name} is read in src/env.ts only: import the typed value from there` });
        return {
          MemberExpression(node) {
            if (node.computed || node.property.type !== "Identifier" || node.property.name !== "env") return;
            if (node.object.type === "MetaProperty") report(node, "import.meta.env");
            else if (node.object.type === "Identifier" && node.object.name === "process") report(node, "process.env");
          },
          // `const { env } = import.meta` or `= process` reads it too.
          VariableDeclarator(node) {
            if (node.id.type !== "ObjectPattern" || !node.init) return;
            const takesEnv = node.id.properties.some((property) => property.type === "Property" && property.key.type === "Identifier" && property.key.name === "env");
            if (!takesEnv) return;
            if (node.init.type === "MetaProperty") report(node, "import.meta.env");
            else if (node.init.type === "Identifier" && node.init.name === "process") report(node, "process.env");
          },
        };
      },
    },
    "world-app-sdk-only-in-lib-world-app": importRule(
      "MiniKit and IDKit are imported under src/lib/world-app/ only",
      (source) =>
        /^@worldcoin\/(minikit|idkit)/.test(source) &&
        `${source} is used through src/lib/world-app/ only (one wrapper per command): call the wrapper or its hook`,
    ),
    "feature-imports-through-index": importRule(
      "a feature or a route imports a feature only through its index.ts",
      (source, filename) => {
        if (!source.startsWith(".")) return false;
        const from = relative(featuresDir, filename).split("/")[0];
        const inRoutes = !relative(routesDir, filename).startsWith("..");
        // The entry (main.tsx, router.tsx) is no feature nor a route: it mounts the layout every route is nested in.
        if (!inRoutes && (!from || from.startsWith(".."))) return false;
        const [feature, ...rest] = relative(featuresDir, resolve(dirname(filename), source)).split("/");
        if (!feature || feature.startsWith("..") || feature === from || rest.length === 0) return false;
        if (rest.length === 1 && rest[0] === "index") return false;
        return `${source} reaches into the ${feature} feature: import from "${relative(dirname(filename), resolve(featuresDir, feature)) || "."}" (its index.ts) instead`;
      },
    ),
  },
};

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
  // The app's source only: tests, scripts and the Vite config run in Node beside the build (they set and read the
  // build's variables, e.g. test/helpers/rehearsal-build.ts, scripts/production-guard.ts) and stand in for World App
  // (test/world-app.test.ts fakes MiniKit), so these boundaries do not apply to them.
  {
    files: ["src/**/*.ts", "src/**/*.tsx"],
    plugins: { oro: boundaries },
    rules: {
      "oro/env-only-in-env-ts": "error",
      "oro/world-app-sdk-only-in-lib-world-app": "error",
      "oro/feature-imports-through-index": "error",
    },
  },
  { files: ["src/env.ts"], rules: { "oro/env-only-in-env-ts": "off" } },
  { files: ["src/lib/world-app/**"], rules: { "oro/world-app-sdk-only-in-lib-world-app": "off" } },
];
