package dev.mcpx.testkit.conformance;

/** Tiny binary payloads for image, audio and blob fixtures. */
final class Media {

    /** A 1x1 RGB PNG. */
    static final String PNG_BASE64 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC";
    /** Four silent samples of 16-bit mono WAV at 8 kHz. */
    static final String WAV_BASE64 = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAAAAAAAAAA==";

    private Media() {
    }
}
