package dev.mcpx.setup;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The hosts {@code mcpx setup} knows: where each keeps its user-level MCP config on each OS
 * (as the host documents it), under which key, and which {@code ${...}} forms it expands.
 */
public enum Host {
    /** modelcontextprotocol.io quickstart: claude_desktop_config.json, no variable expansion. */
    CLAUDE_DESKTOP("claude-desktop", "Claude Desktop", "mcpServers", Variables.NONE),
    /** code.claude.com/docs/en/mcp: user scope is the top-level mcpServers of ~/.claude.json. */
    CLAUDE_CODE("claude-code", "Claude Code", "mcpServers", Variables.SHELL),
    /** cursor.com/docs: ~/.cursor/mcp.json, ${env:NAME} and ${userHome} interpolation. */
    CURSOR("cursor", "Cursor", "mcpServers", Variables.EDITOR),
    /** code.visualstudio.com MCP configuration reference: mcp.json in the user profile, "servers". */
    VSCODE("vscode", "VS Code", "servers", Variables.EDITOR),
    /** docs.windsurf.com Cascade MCP: ~/.codeium/windsurf/mcp_config.json, remote servers as serverUrl. */
    WINDSURF("windsurf", "Windsurf", "mcpServers", Variables.EDITOR);

    /** How a host expands {@code ${...}} in its entries, which decides what mcpx can take over. */
    enum Variables {
        /** none: a {@code ${X}} is literal text, which mcpx would expand. */
        NONE,
        /** {@code ${VAR}} and {@code ${VAR:-default}}, exactly as mcpx does. */
        SHELL,
        /** VS Code's and its forks': {@code ${env:VAR}}, {@code ${userHome}}, {@code ${input:id}}, ... */
        EDITOR
    }

    private final String id;
    private final String title;
    private final String serversKey;
    private final Variables variables;

    Host(String id, String title, String serversKey, Variables variables) {
        this.id = id;
        this.title = title;
        this.serversKey = serversKey;
        this.variables = variables;
    }

    /** The name on the command line: {@code claude-desktop}, {@code vscode}, ... */
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    /** The top-level key holding the servers: {@code mcpServers}, or VS Code's {@code servers}. */
    public String serversKey() {
        return serversKey;
    }

    Variables variables() {
        return variables;
    }

    /** Only VS Code documents comments in its file (JSONC); the others are read leniently anyway. */
    boolean allowsComments() {
        return this == VSCODE;
    }

    public static Optional<Host> byId(String id) {
        for (Host host : values()) {
            if (host.id.equals(id.toLowerCase(Locale.ROOT))) {
                return Optional.of(host);
            }
        }
        return Optional.empty();
    }

    /**
     * The user-level config file on {@code os}, from {@code HOME} (Windows: {@code USERPROFILE})
     * and, on Windows, {@code APPDATA}; Linux's Claude Desktop and VS Code follow XDG_CONFIG_HOME.
     */
    public Path configFile(Os os, Map<String, String> environment) {
        Path home = home(os, environment);
        return switch (this) {
            case CLAUDE_DESKTOP -> appData(os, environment, home).resolve("Claude").resolve("claude_desktop_config.json");
            case CLAUDE_CODE -> home.resolve(".claude.json");
            case CURSOR -> home.resolve(".cursor").resolve("mcp.json");
            case VSCODE -> appData(os, environment, home).resolve("Code").resolve("User").resolve("mcp.json");
            case WINDSURF -> home.resolve(".codeium").resolve("windsurf").resolve("mcp_config.json");
        };
    }

    static Path home(Os os, Map<String, String> environment) {
        String home = os == Os.WINDOWS ? environment.getOrDefault("USERPROFILE", environment.get("HOME"))
                : environment.get("HOME");
        return Path.of(home != null ? home : System.getProperty("user.home"));
    }

    /** Where desktop apps keep their settings: the roaming AppData, Application Support, or XDG config. */
    private static Path appData(Os os, Map<String, String> environment, Path home) {
        return switch (os) {
            case WINDOWS -> {
                String appData = environment.get("APPDATA");
                yield appData != null ? Path.of(appData) : home.resolve("AppData").resolve("Roaming");
            }
            case MACOS -> home.resolve("Library").resolve("Application Support");
            case LINUX -> {
                String xdg = environment.get("XDG_CONFIG_HOME");
                yield xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".config");
            }
        };
    }
}
