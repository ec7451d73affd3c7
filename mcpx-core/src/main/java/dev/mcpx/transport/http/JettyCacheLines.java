package dev.mcpx.transport.http;

/**
 * Tells Jetty how many object references share a CPU cache line (it pads its queues by it) before
 * Jetty asks. Untold, Jetty asks the platform MBean server whether references are compressed, and
 * starting that server (every platform MXBean, the diagnostic commands, JFR's settings files)
 * cost a gateway about 200 ms of CPU at start and 2-4 MB of memory for good.
 */
public final class JettyCacheLines {

    static final String REFERENCES_PER_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";
    private static final String LINE_BYTES = "org.eclipse.jetty.util.cacheLineBytes";

    private JettyCacheLines() {
    }

    /** Sets Jetty's property unless it is set already; call it before the first Jetty class is used. */
    public static void preset() {
        if (System.getProperty(REFERENCES_PER_LINE) != null) {
            return;
        }
        // HotSpot names a compressed-oops mode only when references are compressed (4 bytes)
        int referenceBytes = System.getProperty("java.vm.compressedOopsMode") != null ? 4 : 8;
        int lineBytes = Integer.getInteger(LINE_BYTES, 64);
        System.setProperty(REFERENCES_PER_LINE, Integer.toString(Math.max(1, lineBytes / referenceBytes)));
    }
}
