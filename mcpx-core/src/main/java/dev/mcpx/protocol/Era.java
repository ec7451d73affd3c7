package dev.mcpx.protocol;

/**
 * The two protocol eras. Legacy (up to 2025-11-25) negotiates with {@code initialize} and,
 * over HTTP, keeps a session; modern (2026-07-28) is stateless: every request carries its
 * version, client info and capabilities in {@code _meta}.
 */
public enum Era {
    LEGACY,
    MODERN
}
