package dev.mcpx.pool;

/**
 * One upstream as {@code GET /status} shows it. {@code era} and {@code protocolVersion} are null
 * until it has connected once; {@code pid} only for stdio; {@code reason} says why it is failed,
 * restarting or degraded; {@code eraChanges} counts switches to the other era after the upstream was
 * redeployed in it.
 */
public record UpstreamStatus(String name, String transport, String era, String protocolVersion,
                             String state, Long pid, long requests, long reinitializations,
                             long reissues, long restarts, long errors, String reason, long eraChanges) {
}
