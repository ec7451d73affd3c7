package dev.mcpx.cli;

import dev.mcpx.config.ConfigException;
import dev.mcpx.protocol.McpException;

/** Maps what went wrong to the contract's exit codes. */
final class ExitCodes {

    private ExitCodes() {
    }

    static int of(Throwable failure) {
        return switch (failure) {
            case ConfigException e -> Main.USAGE;
            case UsageException e -> Main.USAGE;
            case picocli.CommandLine.ParameterException e -> Main.USAGE;
            case McpException e -> Main.MCP_ERROR;
            default -> Main.MCP_ERROR;
        };
    }

    static String describe(Throwable failure) {
        return switch (failure) {
            case ConfigException e -> e.getMessage();
            case McpException e -> e.getMessage();
            case UsageException e -> e.getMessage();
            default -> failure.toString();
        };
    }
}
