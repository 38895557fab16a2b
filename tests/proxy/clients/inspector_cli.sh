#!/usr/bin/env bash
# The Inspector's command-line client (@modelcontextprotocol/inspector-cli 1.0.3, pinned in
# ../package-lock.json; its bin is mcp-inspector-cli, which starts build/index.js) against URL
# over Streamable HTTP: `inspector_cli.sh URL ARGS...`, e.g.
#   inspector_cli.sh http://127.0.0.1:8931/mcp --method tools/call --tool-name echo --tool-arg message=hi
here=$(cd "$(dirname "$0")/.." && pwd)
url=$1
shift
# 1.0.3 looks for its own package.json with fs.existsSync("../package.json") from the working
# folder but imports it relative to build/index.js: run it where ../package.json exists.
cd "$here/clients" || exit 2
exec node "$here/node_modules/@modelcontextprotocol/inspector-cli/build/index.js" "$url" --transport http "$@"
