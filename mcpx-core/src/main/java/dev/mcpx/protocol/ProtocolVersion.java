package dev.mcpx.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The MCP protocol revisions mcpx knows, and the era each belongs to. */
public enum ProtocolVersion {
    V2024_11_05("2024-11-05", Era.LEGACY),
    V2025_03_26("2025-03-26", Era.LEGACY),
    V2025_06_18("2025-06-18", Era.LEGACY),
    V2025_11_25("2025-11-25", Era.LEGACY),
    V2026_07_28("2026-07-28", Era.MODERN);

    /** The newest legacy revision: what mcpx offers in an {@code initialize}. */
    public static final ProtocolVersion LATEST_LEGACY = V2025_11_25;
    /** The newest modern revision: what mcpx sends in per-request {@code _meta}. */
    public static final ProtocolVersion LATEST_MODERN = V2026_07_28;

    private static final ProtocolVersion[] VALUES = values();

    private final String wire;
    private final Era era;

    ProtocolVersion(String wire, Era era) {
        this.wire = wire;
        this.era = era;
    }

    public String wire() {
        return wire;
    }

    public Era era() {
        return era;
    }

    /** Looked up on every legacy host request: a loop, which C1 compiles to far less than a stream. */
    public static Optional<ProtocolVersion> fromWire(String wire) {
        for (ProtocolVersion version : VALUES) {
            if (version.wire.equals(wire)) {
                return Optional.of(version);
            }
        }
        return Optional.empty();
    }

    public static List<ProtocolVersion> ofEra(Era era) {
        return Arrays.stream(values()).filter(v -> v.era == era).toList();
    }

    @Override
    public String toString() {
        return wire;
    }
}
