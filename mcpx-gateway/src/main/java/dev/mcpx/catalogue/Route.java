package dev.mcpx.catalogue;

/** Where a host-facing tool, prompt or resource lives: the upstream and its own name (or URI) there. */
public record Route(String upstream, String upstreamName) {
}
