package dev.mcpx.cli;

/** The command line itself is wrong (bad JSON arguments, an unknown server): exit 2. */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
