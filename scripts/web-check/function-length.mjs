// No function of the web client (web/**/*.js) is longer than MAX lines: each function,
// method and arrow function is measured from its first line to its last with the
// TypeScript parser (nested functions count in their parent as well).
//
//   node scripts/web-check/function-length.mjs [--list N]   # --list: the N longest

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const MAX = 150;
const root = fileURLToPath(new URL("../..", import.meta.url));
const web = join(root, "web");

/** The client's scripts, recursively. */
function scripts(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scripts(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

/** A function's name for the report: its own, or what it is assigned to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) && ts.isIdentifier(p.name)) return p.name.text;
  return "(anonymous)";
}

const functions = [];
for (const path of scripts(web)) {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ where: `web/${relative(web, path)}:${first + 1}`, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

functions.sort((a, b) => b.lines - a.lines);
const list = process.argv.indexOf("--list");
if (list >= 0) {
  for (const f of functions.slice(0, Number(process.argv[list + 1]) || 10)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`);
}
const long = functions.filter((f) => f.lines > MAX);
for (const f of long) console.error(`${f.where}: ${f.name} has ${f.lines} lines (at most ${MAX})`);
if (long.length) process.exit(1);
console.log(`web/: ${functions.length} functions, the longest ${functions[0]?.lines ?? 0} lines (at most ${MAX})`);
