// Builds the web client into smear_referee/static (checked in, so the server needs no Node.js):
// the protobuf code from the proto with protoc-gen-es, then one bundle with esbuild.
// Run: npm run build. tests/system/test_web_client.py builds into a temporary folder and checks that what
// is checked in is current (SMEAR_WEB_GEN, SMEAR_WEB_OUT name the folders).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const out = process.env.SMEAR_WEB_OUT || resolve(root, "smear_referee/static");
const python = process.env.PYTHON || resolve(root, ".venv/bin/python");
const gen = process.env.SMEAR_WEB_GEN || resolve(here, "src/gen");  // elsewhere: to compare with the checked-in code
mkdirSync(gen, { recursive: true });
execFileSync(python, ["-m", "grpc_tools.protoc", `-I${resolve(root, "smear_dsl/proto")}`,
  `--plugin=protoc-gen-es=${resolve(here, "node_modules/.bin/protoc-gen-es")}`, `--es_out=${gen}`,
  "--es_opt=target=js", resolve(root, "smear_dsl/proto/smear/referee/v1/referee.proto")], { stdio: "inherit" });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [resolve(here, "src/main.js")], bundle: true, format: "esm", target: "es2020",
  minify: true, legalComments: "none", outfile: resolve(out, "app.js"), logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) copyFileSync(resolve(here, "src", f), resolve(out, f));
