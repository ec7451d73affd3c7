package dev.mcpx.pool;

/** Where one upstream is in its life, as {@code /status} shows it. */
public enum UpstreamState {
    /** First connection under way. */
    STARTING,
    /** Connected; calls go through. */
    UP,
    /**
     * Connected, but a fault of the upstream repeats (sessions lost right after initialize, every
     * stream breaking, an era that flips): calls are refused at once with the reason until a
     * probe finds it healed. Shown in {@code /status}; the pool treats it as up.
     */
    DEGRADED,
    /** The child exited or the connection died; a new one is coming after a backoff. */
    RESTARTING,
    /** Could not start; retried with backoff, its tools absent meanwhile. */
    FAILED,
    /**
     * An OAuth upstream with no token that works, and none to be had without its user
     * ({@code mcpx login NAME}): its tools absent, calls refused with that advice; tried again
     * with backoff, so a login from any process is picked up.
     */
    NEEDS_LOGIN,
    /** In the config with {@code enabled: false}. */
    DISABLED,
    /** Shut down (gateway stopping, or removed from the config). */
    STOPPED;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
