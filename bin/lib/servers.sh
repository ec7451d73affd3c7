# shellcheck shell=bash
# Sourced by the scripts that start servers (conformance/run, bin/mcpx-aot): a server binds port 0
# (or a port it chose) and says where it listens on a line of its output; the script reads that
# line instead of probing for a free port, and a server that dies first fails at once, with its log.
#
#   start_server LOG PATTERN SECONDS COMMAND [ARGS...]
#     runs COMMAND in the background, stdout and stderr appended to LOG, and returns once one of its
#     lines matches the extended regex PATTERN: STARTED_PID is its process id, STARTED_MATCH the part
#     of the line that the regex's first group matched (the whole match when it has none). Returns 1,
#     with the log on stderr, when the process exits first or SECONDS pass without such a line.

start_server() {
    local log="$1" pattern="$2" seconds="$3"
    shift 3
    local fifo fd line status remaining deadline=$((SECONDS + seconds))
    fifo="$(mktemp -u "${TMPDIR:-/tmp}/mcpx-server.XXXXXX")"
    mkfifo "$fifo"
    "$@" >"$fifo" 2>&1 &
    STARTED_PID=$!
    STARTED_MATCH=""
    exec {fd}<"$fifo"
    rm -f "$fifo"
    while :; do
        remaining=$((deadline - SECONDS))
        if (( remaining <= 0 )) || ! IFS= read -r -t "$remaining" -u "$fd" line; then
            [[ -z "${line:-}" ]] || printf '%s\n' "$line" >>"$log"
            if kill -0 "$STARTED_PID" 2>/dev/null; then
                echo "start_server: '$*' said nothing matching /$pattern/ within $seconds s; its log ($log):" >&2
                kill "$STARTED_PID" 2>/dev/null || true
            else
                wait "$STARTED_PID" 2>/dev/null && status=0 || status=$?
                echo "start_server: '$*' exited (status $status) before it listened; its log ($log):" >&2
            fi
            exec {fd}<&-
            sed 's/^/    | /' "$log" | tail -n 60 >&2
            return 1
        fi
        printf '%s\n' "$line" >>"$log"
        if [[ "$line" =~ $pattern ]]; then
            STARTED_MATCH="${BASH_REMATCH[1]:-${BASH_REMATCH[0]}}"
            break
        fi
    done
    # keep draining its output into the log, or the server would block once the pipe is full
    cat <&"$fd" >>"$log" &
    exec {fd}<&-
}
