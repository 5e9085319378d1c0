import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import importPlugin from "eslint-plugin-import";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const JOBS_FOLDER = {
  group: ["**/jobs/*", "#jobs/*"],
  message: "Enqueue through the jobs port: ~/services/jobs.server.",
};
const MODEL_UP = [
  {
    group: ["~/routes/*", "~/components/*"],
    message: "Models hold queries only; screens call them, not the other way round.",
  },
  {
    group: [
      "~/utils/auth.server",
      "~/utils/session.server",
      "~/utils/device-auth.server",
      "~/utils/device-upload.server",
      "~/utils/export-request.server",
      "~/utils/login-api.server",
      "~/utils/master-data-api.server",
      "~/utils/photo-file.server",
    ],
    message: "These helpers import models; a model takes the context type from ~/utils/auth-context.",
  },
];
const MODEL_SERVICES = {
  group: ["~/services/*", "../services/*"],
  message: "Models do not send mail, store files or enqueue: their caller does, through a service.",
};

// Formatting is Prettier's (npm run format); ESLint checks correctness, accessibility, hooks,
// import order and the layer rules of ARCHITECTURE.md (the restricted imports at the end).
export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "node_modules/**", ".cache/**", "storage/**", "test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { import: importPlugin },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "import/no-duplicates": "error",
      "import/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"], "type"],
          pathGroups: [
            { pattern: "~/**", group: "internal" },
            { pattern: "#db/**", group: "internal" },
            { pattern: "#tests/**", group: "internal" },
          ],
          "newlines-between": "never",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
    },
  },
  {
    files: ["**/*.tsx"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "react/prop-types": "off",
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // app/domain is pure: measurement math imports nothing of the app, the database or Node.
    files: ["app/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/*", "#db/*", "#tests/*", "node:*", "../*"],
              message: "app/domain imports nothing but itself.",
            },
          ],
        },
      ],
    },
  },
  {
    // Web code enqueues through the jobs port (app/services/jobs.server.ts), never the worker's folder.
    files: ["app/**", "db/**", "bench/**", "tests/**"],
    ignores: ["app/domain/**", "app/models/**", "app/utils/schemas/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [JOBS_FOLDER] }] },
  },
  {
    // Models are queries: they never reach up to services (mail, files, jobs), screens or the
    // guards (utils that import models); the context type comes from utils/auth-context.ts.
    files: ["app/models/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [JOBS_FOLDER, ...MODEL_UP, MODEL_SERVICES] }] },
  },
  {
    // Still sending mail from the model (security's account and invitation models, issue 12):
    // to move into services, then this exception goes.
    files: ["app/models/account.server.ts", "app/models/user-admin.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [JOBS_FOLDER, ...MODEL_UP] }] },
  },
  {
    // A payload's schema is shared by the API, the form and the tests: it imports no UI and no server code.
    files: ["app/utils/schemas/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            JOBS_FOLDER,
            {
              group: ["~/components/*", "~/routes/*", "~/models/*", "~/services/*", "*.server"],
              message: "Schemas import zod, app/domain and other schemas only.",
            },
          ],
        },
      ],
    },
  },
  {
    // Migrations are written against Kysely<any> (they never import the app's schema); tests and
    // benchmarks read JSON answers whose shape the assertions check.
    files: ["db/migrations/**", "tests/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
);
