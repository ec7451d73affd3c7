# shellcheck shell=bash
# Sourced by bin/mcpx and bin/mcpx-aot: whether bin/mcpx caps the JIT at C1 on this machine.
#
#   c1_only CORES   true for 2 cores or fewer, unless MCPX_JIT=tiered or MCPX_JAVA_OPTS names a
#                   TieredStopAtLevel of its own
#
# C2 halves the CPU per call of a warm gateway, but it costs about 1.5 s more CPU in the first
# seconds after launch and 8-19 MiB more idle RSS (bench/findings.md, the JIT), and most gateways on
# small machines are started by a host and sit idle. MCPX_JIT=tiered: C2 on, for sustained load.
c1_only() {
    [[ "${MCPX_JIT:-}" != tiered && "$1" -le 2 && " ${MCPX_JAVA_OPTS:-} " != *TieredStopAtLevel* ]]
}
