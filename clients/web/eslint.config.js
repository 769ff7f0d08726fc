// The web client's linter (make check runs it): eslint's recommended rules, for browser modules.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/gen/**", "node_modules/**"] },
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }] },
  },
  {
    files: ["build.mjs", "eslint.config.js", "test/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
