package dev.mcpx.config;

/**
 * The operator's word on re-issuing one tool's call after a lost modern stream: it overrides
 * the tool's own (untrusted) annotations.
 */
public enum ReissuePolicy {
    ALWAYS,
    NEVER
}
